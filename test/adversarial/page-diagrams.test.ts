// A job page draws diagrams with no navigation, whatever an artifact's Mermaid says. Each
// diagram below asks, in one of Mermaid's own ways, for a link, a click, a remote picture or
// a looser configuration; all are put in one artifact of one page (renderJobPage, as `cfa
// show` writes it) and drawn by a real browser (headless Chromium). In what it drew there is
// no <a>, no href but the page's own `#…`, no image or embed, no event handler attribute,
// no remote url() — and every diagram is still drawn. Positive control: the same diagrams
// drawn as before (securityLevel "strict" alone, the source as written) leave live links
// and remote picture requests in the drawing.

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/cli/page/escape-html.js";
import { renderJobPage } from "../../src/cli/page/job-page.js";
import { mermaidScript } from "../../src/cli/page/mermaid-script.js";
import { cases } from "../support/adversarial/count.js";
import { removeDir, tempDir } from "../support/git/temp-repo.js";
import { CHROMIUM, drawnPage, sha256 } from "../support/page/load-page.js";
import { bound } from "../support/time-bound.js";

const AT = "https://attacker.example";

/** Each diagram, as an agent would write it into an artifact. */
const DIAGRAMS: readonly [string, string][] = [
  ["a flowchart click to a URL", `flowchart TD\n  A --> B\n  click B "${AT}/click" "tip"`],
  [
    "a flowchart click href, new tab",
    `flowchart TD\n  A --> B\n  click A href "${AT}/href" _blank`,
  ],
  ["a flowchart click callback", `flowchart TD\n  A --> B\n  click A call alert("x")`],
  [
    "a class diagram's link, callback and click",
    `classDiagram\n  class Shop\n  class Cart\n  link Shop "${AT}/link" "tip"\n  callback Cart "alert" "tip"\n  click Cart href "${AT}/class"`,
  ],
  [
    "a sequence diagram's actor link",
    `sequenceDiagram\n  participant Alice\n  link Alice: Dashboard @ ${AT}/dash\n  Alice->>Bob: hi`,
  ],
  [
    "a sequence diagram's actor links",
    `sequenceDiagram\n  participant Alice\n  links Alice: {"Repo": "${AT}/repo", "Wiki": "${AT}/wiki"}\n  Alice->>Bob: hi`,
  ],
  [
    "a Gantt task's click",
    `gantt\n  dateFormat YYYY-MM-DD\n  section S\n  Task :t1, 2026-01-01, 3d\n  click t1 href "${AT}/gantt"`,
  ],
  [
    "a C4 element's $link",
    `C4Context\n  Person(a, "Agent", "x", $link="${AT}/c4")\n  System(s, "System", "y")\n  Rel(a, s, "uses")`,
  ],
  [
    "an image shape",
    `flowchart TD\n  A --> P@{ img: "${AT}/p.png", label: "pic", pos: "t", h: 60 }`,
  ],
  ["an icon shape by URL", `flowchart TD\n  A --> I@{ icon: "${AT}/i.svg", label: "icon" }`],
  [
    "an init directive loosening security",
    `%%{init: {"securityLevel": "loose"}}%%\nflowchart TD\n  A --> B\n  click B "${AT}/loose"`,
  ],
  [
    "front matter configuration with a remote themeCSS",
    `---\ntitle: T\nconfig:\n  securityLevel: loose\n  themeCSS: ".node rect { fill: url(${AT}/bg.png) }"\n---\nflowchart TD\n  A --> B`,
  ],
  ["an HTML anchor in a label", `flowchart TD\n  A["<a href='${AT}/label'>x</a>"] --> B`],
  ["an img in a label", `flowchart TD\n  A["<img src='${AT}/label.png'>"] --> B`],
];

const ARTIFACT = DIAGRAMS.map(([name, d]) => `## ${name}\n\n\`\`\`mermaid\n${d}\n\`\`\`\n`).join(
  "\n",
);

/** What a drawing holds that could navigate or load: one line per finding. */
function findings(pre: Element): string[] {
  const found: string[] = [];
  for (const el of pre.querySelectorAll("*")) {
    const tag = el.localName.toLowerCase();
    if (["a", "image", "img", "iframe", "object", "embed", "script", "use"].includes(tag)) {
      found.push(`<${tag}>`);
    }
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) found.push(`${tag} ${name}`);
      if ((name === "href" || name.endsWith(":href")) && !attr.value.startsWith("#")) {
        found.push(`${tag} ${name}=${attr.value}`);
      }
      if (attr.value.includes("attacker.example")) found.push(`${tag} ${name}=${attr.value}`);
    }
    if (tag === "style" && (el.textContent ?? "").includes("attacker.example")) {
      found.push("<style> url(attacker)");
    }
  }
  return found;
}

let dir: string;
let mermaid: string | null;
beforeAll(async () => {
  dir = tempDir("cfa-page-diagrams-");
  mermaid = await mermaidScript();
});
afterAll(() => removeDir(dir));

const drawable = CHROMIUM !== null;

describe(cases("diagrams drawn with no navigation", DIAGRAMS.length), () => {
  it.skipIf(!drawable)(
    "nothing in any drawing links, loads or handles an event; every diagram is drawn",
    async () => {
      expect(mermaid).not.toBeNull();
      const file = path.join(dir, "page.html");
      await writeFile(
        file,
        renderJobPage({
          job: 1,
          title: "diagrams",
          state: "PLAN",
          ref: "cfa/1",
          head: "0".repeat(40),
          status: "status",
          history: [],
          tree: [],
          tasks: [],
          artifacts: [{ name: "PLAN.md", path: "p", text: ARTIFACT, show: "git show" }],
          mermaid,
          writtenAt: "2026-11-28T00:00:00Z",
        }),
      );
      const drawn = await drawnPage(file);
      const pres = [...drawn.querySelectorAll("pre.mermaid")];
      expect(pres).toHaveLength(DIAGRAMS.length);
      const report = pres.map((pre, i) => ({
        diagram: DIAGRAMS[i]![0],
        drawn: pre.querySelector("svg") !== null && !/Syntax error/i.test(pre.textContent ?? ""),
        findings: findings(pre),
      }));
      expect(report).toEqual(DIAGRAMS.map(([diagram]) => ({ diagram, drawn: true, findings: [] })));
      expect(drawn.querySelector(".mermaidTooltip")).toBeNull();
    },
    bound(150_000),
  );

  it.skipIf(!drawable)(
    "positive control: drawn as before, the same diagrams leave live links and remote pictures",
    async () => {
      const init = `mermaid.initialize({startOnLoad:false,securityLevel:"strict"});\nmermaid.run({querySelector:"pre.mermaid"});`;
      const csp = `default-src 'none'; script-src 'sha256-${sha256(mermaid!)}' 'sha256-${sha256(init)}'; style-src 'unsafe-inline'; img-src data:; font-src data:`;
      const file = path.join(dir, "before.html");
      await writeFile(
        file,
        [
          `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}"></head><body>`,
          ...DIAGRAMS.map(([, d]) => `<pre class="mermaid">${escapeHtml(d)}</pre>`),
          `<script>${mermaid!}</script><script>${init}</script></body></html>`,
        ].join("\n"),
      );
      const drawn = await drawnPage(file);
      const all = [...drawn.querySelectorAll("pre.mermaid")].flatMap(findings);
      expect(all.filter((f) => f.startsWith("a xlink:href=https://attacker"))).not.toEqual([]);
      expect(all.length).toBeGreaterThanOrEqual(5);
    },
    bound(150_000),
  );
});
