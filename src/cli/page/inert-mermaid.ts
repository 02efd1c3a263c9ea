// A diagram's Mermaid source as a job page draws it: every way the source can ask for a link,
// a click, a remote picture or another configuration taken out first. securityLevel
// "strict" encodes HTML in labels and binds no click callback, but still draws a
// `click A "https://…"` or `click A href …` as a live <a xlink:href> (so does a sequence
// diagram's actor `link`/`links` menu), and an image or icon shape still asks for its URL;
// the page's Content-Security-Policy stops requests, not navigation. What this leaves is
// drawn, then checked once more in the page (diagram-script.ts). Mermaid's syntax, per
// diagram (mermaid.js.org/syntax/…):
//
// - flowchart, class, state and Gantt interactions: `click <id> …` lines ("Interaction");
// - class diagrams' `link <class> "url"` and `callback <class> "fn"`;
// - sequence diagrams' actor menus: `link <actor>: label @ url`, `links <actor>: {json}`;
// - C4: `$link="…"` (and `$sprite`, which may name an image) in an element's arguments;
// - shape data: `@{ img: "…" }`, `@{ icon: "…" }` (flowchart "Image shape", "Icon shape");
// - configuration: `%%{init: …}%%` directives and a front matter's `config:` (themeCSS,
//   fontFamily, kanban's ticketBaseUrl…): only a front matter's `title:` is kept.
//
// Pure, line by line, linear: no regular expression here can backtrack on hostile text.

const INTERACTION = /^\s*(?:click\s|callback\s+\S+\s|link\s+\S+\s+["']|links?\s+[^:\n]*:)/iu;
const C4_ARGUMENT = /,?\s*\$(?:link|sprite)\s*=\s*"[^"\n]*"/giu;

export function inertMermaid(source: string): string {
  const lines = withoutDirectives(source).split("\n");
  const out: string[] = [];
  let i = 0;
  // A front matter (`---` … `---` on the first lines): its title only.
  if (lines[0]?.trim() === "---") {
    const end = lines.findIndex((line, k) => k > 0 && line.trim() === "---");
    if (end > 0) {
      const title = lines.slice(1, end).find((line) => /^title:\s/u.test(line));
      if (title !== undefined) out.push("---", title, "---");
      i = end + 1;
    }
  }
  for (; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (INTERACTION.test(line)) continue;
    out.push(withoutShapePictures(line.replace(C4_ARGUMENT, "")));
  }
  return out.join("\n");
}

/** `%%{ … }%%` directives removed (an unclosed one to the end). */
function withoutDirectives(source: string): string {
  let out = "";
  let at = 0;
  for (let open = source.indexOf("%%{"); open >= 0; open = source.indexOf("%%{", at)) {
    out += source.slice(at, open);
    const close = source.indexOf("}%%", open + 3);
    at = close < 0 ? source.length : close + 3;
  }
  return out + source.slice(at);
}

/** Within each `@{ … }` of a line, its `img:` and `icon:` entries removed (quotes respected). */
function withoutShapePictures(line: string): string {
  let out = "";
  let at = 0;
  for (let open = line.indexOf("@{"); open >= 0; open = line.indexOf("@{", at)) {
    const { entries, end } = shapeEntries(line, open + 2);
    const kept = entries.filter((entry) => !PICTURE_KEY.test(entry));
    out += `${line.slice(at, open)}@{${kept.join(",")}`;
    at = end;
  }
  return out + line.slice(at);
}

const PICTURE_KEY = /^\s*["']?(?:img|icon)["']?\s*:/iu;

/** The comma-separated entries of shape data from `from` to its `}` (outside quotes). */
function shapeEntries(line: string, from: number): { entries: string[]; end: number } {
  const entries: string[] = [];
  let quote: string | null = null;
  let start = from;
  let k = from;
  for (; k < line.length; k += 1) {
    const c = line[k]!;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ",") {
      entries.push(line.slice(start, k));
      start = k + 1;
    } else if (c === "}") break;
  }
  entries.push(line.slice(start, k));
  return { entries, end: k };
}
