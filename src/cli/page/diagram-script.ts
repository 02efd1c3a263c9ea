// The job page's own script for its diagrams (job-page.ts inlines it, allowed by hash): draw
// each with the inlined mermaid at securityLevel "strict" from a source inert-mermaid.ts has
// already cleared of links, clicks, pictures and configuration, then check what was drawn —
// whatever mermaid (or a diagram type it adds later) still made: every <a> unwrapped to its
// contents; every element that loads or embeds (image, img, iframe, object, embed, script,
// audio, video, SVG animation, a <use> of anything but the page) removed; every attribute
// that loads, runs or navigates (on*, src, href/xlink:href but `#…`, target, ping, action,
// javascript:, a url() that is not `#…`) dropped; `@import` and remote url() taken out of
// its styles; then each drawing replaced by a copy of itself, which holds none of the event
// listeners mermaid bound (a DOM copy never does), and mermaid's tooltip removed. The page
// then has nothing to follow, whatever the artifact's Mermaid said.

export const DIAGRAM_SCRIPT = `mermaid.initialize({startOnLoad:false,securityLevel:"strict"});
(function(){
var LOADS={image:1,img:1,iframe:1,object:1,embed:1,script:1,audio:1,video:1,source:1,track:1,animate:1,set:1,animatemotion:1,animatetransform:1,discard:1,feimage:1};
var ATTRS={src:1,srcset:1,action:1,formaction:1,data:1,poster:1,background:1,target:1,ping:1,download:1};
var REMOTE_URL=/url\\(\\s*(?!['"]?#)[^)]*\\)/gi;
function local(v){return /^\\s*#/.test(v);}
function clean(root){
var all=root.querySelectorAll("*");
for(var i=all.length-1;i>=0;i--){
var el=all[i],tag=el.localName.toLowerCase();
if(tag==="a"){while(el.firstChild)el.parentNode.insertBefore(el.firstChild,el);el.remove();continue;}
if(LOADS[tag]===1){el.remove();continue;}
var names=[];for(var k=0;k<el.attributes.length;k++)names.push(el.attributes[k].name);
for(var j=0;j<names.length;j++){
var n=names[j],l=n.toLowerCase(),v=el.getAttribute(n)||"";
if(l.indexOf("on")===0||ATTRS[l]===1||((l==="href"||/:href$/.test(l))&&!local(v))||/javascript:/i.test(v)||v.search(REMOTE_URL)>=0)el.removeAttribute(n);
}
if(tag==="style")el.textContent=(el.textContent||"").replace(/@import[^;]*;?/gi,"").replace(REMOTE_URL,"none");
}
}
function done(){
document.querySelectorAll("pre.mermaid").forEach(function(pre){clean(pre);pre.replaceWith(pre.cloneNode(true));});
document.querySelectorAll(".mermaidTooltip").forEach(function(t){t.remove();});
}
mermaid.run({querySelector:"pre.mermaid"}).then(done,done);
})();`;
