// The job page without mermaid installed, and the inlined script's escaping: the page still
// says everything, shows each diagram's source and runs nothing.

import { describe, expect, it } from "vitest";
import { renderJobPage, type JobPageFacts } from "../../../../src/cli/page/job-page.js";
import { inlineScript, mermaidMissing } from "../../../../src/cli/page/mermaid-script.js";
import { packageRoot } from "../../../../src/skills/package-root.js";
import { diagramsOf, pageDom } from "../../../support/page/load-page.js";

const facts = (over: Partial<JobPageFacts> = {}): JobPageFacts => ({
  job: 3,
  title: "A title",
  state: "PLAN",
  ref: "cfa/3",
  head: "0123456789abcdef",
  status: "### cfa job #3: **PLAN**\n\n```mermaid\nflowchart LR\n  A --> B\n```\n",
  history: ['[#3] 12:00:00 JOB           START     "A title"'],
  tree: ["Job #3"],
  tasks: [],
  artifacts: [],
  mermaid: null,
  writtenAt: "2026-11-26T12:00:00.000Z",
  ...over,
});

describe("renderJobPage", () => {
  it("without mermaid: no script, a policy allowing none, the diagram's source and a note", () => {
    const doc = pageDom(renderJobPage(facts()));
    expect(doc.querySelectorAll("script")).toHaveLength(0);
    const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!;
    expect(csp.getAttribute("content")).toContain("script-src 'none'");
    expect(diagramsOf(doc)).toEqual(["flowchart LR\n  A --> B"]);
    expect(doc.body.textContent).toMatch(/the optional package mermaid is not installed/i);
    expect(doc.querySelector("#history pre")?.textContent).toBe(facts().history[0]);
  });

  it("without mermaid, the page and `cfa show` name the one command that installs it where cfa-bot finds it", () => {
    const missing = mermaidMissing();
    expect(missing).toContain(
      `run \`npm install --prefix ${packageRoot()} --no-save mermaid@12.3.0\` (with Node 22.12 or later)`,
    );
    const doc = pageDom(renderJobPage(facts({ missing })));
    expect(doc.querySelector("#no-mermaid code")?.textContent).toBe(
      `npm install --prefix ${packageRoot()} --no-save mermaid@12.3.0`,
    );
  });

  it("with mermaid: the bundle and the start script, in that order, the note gone", () => {
    const doc = pageDom(renderJobPage(facts({ mermaid: "window.mermaid = {};" })));
    const scripts = [...doc.querySelectorAll("script")].map((s) => s.textContent);
    expect(scripts[0]).toBe("window.mermaid = {};");
    expect(scripts[1]).toContain('securityLevel:"strict"');
    expect(doc.body.textContent).not.toContain("not installed");
  });
});

describe("inlineScript", () => {
  it("writes the < of </script, <!-- and <script as \\x3C, which JavaScript reads as <", () => {
    const code = `var a = "</script><!--<SCRIPT>"; var r = /<\\/script>/;`;
    const safe = inlineScript(code);
    expect(safe).not.toMatch(/<\/script|<!--|<script/i);
    // The same program: the string and the pattern mean what they meant.
    const run = (js: string) => new Function(`${js}; return [a, r.source];`)() as string[];
    expect(run(safe)).toEqual(run(code));
    // Positive control: unescaped, the HTML parser ends the script inside the string.
    const doc = pageDom(`<script>${code}</script>`);
    expect(doc.querySelector("script")?.textContent).toBe('var a = "');
  });
});
