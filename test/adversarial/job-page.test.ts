// The job page (`cfa show`): everything on a job's page that an agent or a person wrote is hostile.
// A real job whose issue title, artifact and question carry script elements, event handlers,
// javascript: links and a </script> inside a Mermaid label is shown with `cfa show` and loaded in
// jsdom: nothing runs (jsdom runs the page's scripts, as a browser would), the DOM holds no planted
// element or attribute, and the planted text is there, as text. Positive control per case: the same
// text put on a page the naive way (marked's own output, a diagram's source pasted into its <pre>)
// yields the element or attribute.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { marked } from "marked";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeJobPage } from "../../src/cli/page/write-job-page.js";
import { wake } from "../../src/engine/index.js";
import { cases } from "../support/adversarial/count.js";
import { createLocalJob, type LocalJob } from "../support/engine/local-job.js";
import { gate, writeArtifact } from "../support/engine/recordings.js";
import { recording } from "../support/engine/script.js";
import {
  diagramsOf,
  mermaidParse,
  pageDom,
  riskyAttributes,
  runPage,
} from "../support/page/load-page.js";
import { bound } from "../support/time-bound.js";

type Naive = "markdown" | "diagram";
/** [class, name, planted Markdown, how a naive page would put it on the page]. */
const CASES: readonly [string, string, string, Naive][] = [
  ["script", "a script element", `<script>window.__pwned = "s1"</script>`, "markdown"],
  ["script", "an upper-case script", `<SCRIPT>window.__pwned = "s2"</SCRIPT>`, "markdown"],
  [
    "script",
    "a script in a table cell",
    `| a |\n|---|\n| <script>window.__pwned = "s3"</script> |`,
    "markdown",
  ],
  [
    "script",
    "a script in details",
    `<details><summary>x</summary>\n<script>window.__pwned = "s4"</script>\n</details>`,
    "markdown",
  ],
  ["handler", "an img onerror", `<img src="x" onerror="window.__pwned = 'h1'">`, "markdown"],
  ["handler", "an svg onload", `<svg onload="window.__pwned = 'h2'"></svg>`, "markdown"],
  [
    "handler",
    "details ontoggle",
    `<details open ontoggle="window.__pwned = 'h3'"><summary>s</summary></details>`,
    "markdown",
  ],
  [
    "handler",
    "an iframe srcdoc",
    `<iframe srcdoc="<script>parent.__pwned = 'h4'</script>"></iframe>`,
    "markdown",
  ],
  ["javascript", "an inline link", `[click](javascript:window.__pwned='j1')`, "markdown"],
  ["javascript", "a mixed-case scheme", `[click](JaVaScRiPt:window.__pwned='j2')`, "markdown"],
  [
    "javascript",
    "a reference link",
    `[click][r]\n\n[r]: javascript:window.__pwned='j3'`,
    "markdown",
  ],
  [
    "javascript",
    "an HTML anchor",
    `<a href="javascript:window.__pwned='j4'">click</a>`,
    "markdown",
  ],
  ["javascript", "an image's address", `![x](javascript:window.__pwned='j5')`, "markdown"],
  [
    "mermaid",
    "</script> in a label",
    `flowchart TD\n  A["</script><script>window.__pwned = 'm1'</script>"]`,
    "diagram",
  ],
  [
    "mermaid",
    "</pre> in a label",
    `flowchart TD\n  A["</pre><img src=x onerror=window.__pwned='m2'>"]`,
    "diagram",
  ],
  [
    "mermaid",
    "an HTML label",
    `flowchart TD\n  A["<b onmouseover=window.__pwned='m3'>b</b>"] --> B`,
    "diagram",
  ],
];

const fence = (text: string, naive: Naive) =>
  naive === "diagram" ? `\`\`\`mermaid\n${text}\n\`\`\`` : text;
const TITLE = `Greet <script>window.__pwned = "title"</script> [x](javascript:void(0))`;
const QUESTION = `Ready? <img src=x onerror="window.__pwned = 'question'"> </script><script>window.__pwned = 'q'</script>`;
const ARTIFACT = [
  "# Intent",
  ...CASES.map(([, name, text, naive]) => `\n## ${name}\n\n${fence(text, naive)}\n`),
].join("\n");

let job: LocalJob;
let html: string;
let doc: Document;
beforeAll(async () => {
  job = await createLocalJob({
    recording: recording({
      "intent-lead@state:intent:1": [
        writeArtifact("INTENT.md", ARTIFACT),
        gate("INTENT.md", QUESTION),
      ],
    }),
  });
  await job.forge.openIssue({ title: TITLE, body: "hostile", labels: ["cfa"] });
  await wake(1, job.deps);
  const out = join(job.repoDir, "..", "hostile.html");
  const page = await writeJobPage(job.repoDir, 1, { out, cli: "cfa", now: new Date() });
  html = readFileSync(page.path, "utf8");
  doc = pageDom(html);
}, bound(120_000));
afterAll(async () => job?.cleanup());

/** The naive page: what the case's text would become without the page's defences. */
function naivePage(text: string, naive: Naive): Document {
  const body =
    naive === "diagram"
      ? `<pre class="mermaid">${text}</pre>`
      : marked.parse(text, { async: false });
  return pageDom(`<!doctype html><html><body>${body}</body></html>`);
}

const planted = (d: Document) =>
  [...d.querySelectorAll("script")].filter((s) => (s.textContent ?? "").includes("__pwned"));

describe(cases("hostile text on a job's page", CASES.length + 2), () => {
  it("runs nothing: the page's scripts run in jsdom, and none of the planted ones", () => {
    const window = runPage(html) as unknown as { __pwned?: unknown; mermaid?: unknown };
    expect(window.mermaid).toBeDefined(); // the page's own script did run
    expect(window.__pwned).toBeUndefined();
    // Positive control: jsdom does run a planted script that reaches the DOM.
    const naive = `<!doctype html><body>${marked.parse(CASES[0]![2], { async: false })}</body>`;
    expect((runPage(naive) as unknown as { __pwned?: unknown }).__pwned).toBe("s1");
  });

  it("holds only its own two scripts and no element or attribute that loads or runs", () => {
    expect(doc.querySelectorAll("script")).toHaveLength(2);
    expect(planted(doc)).toEqual([]);
    expect(riskyAttributes(doc)).toEqual([]);
    // The title and the question (a person's, an agent's) are there as text.
    expect(doc.querySelector("h1")?.textContent).toBe(`cfa job #1: ${TITLE}`);
    expect(doc.body.textContent).toContain(
      `Ready? <img src=x onerror="window.__pwned = 'question'">`,
    );
  });

  it.each(CASES)("%s — %s: shown as text, no element, no attribute", (_cls, name, text, naive) => {
    const section = doc.getElementById("artifact-INTENT.md")!;
    expect(section.textContent).toContain(name);
    expect(section.textContent).toContain("__pwned");
    // Positive control: put on a page the naive way, the same text is an element or attribute.
    const control = naivePage(text, naive);
    expect([...planted(control), ...riskyAttributes(control)].length, name).toBeGreaterThan(0);
  });

  it("each planted diagram is still a diagram mermaid parses, its label text kept", async () => {
    const diagrams = diagramsOf(doc).filter((d) => d.includes("__pwned"));
    expect(diagrams).toHaveLength(CASES.filter(([, , , naive]) => naive === "diagram").length);
    for (const d of diagrams) await expect(mermaidParse(d), d).resolves.toBeTruthy();
    expect(diagrams[0]).toContain(`</script><script>window.__pwned = 'm1'</script>`);
  });
});
