// A job's page: one self-contained HTML file — the status comment as
// GitHub would show it (its Markdown rendered, its pictures drawn by the inlined mermaid),
// the history as `cfa watch --verbose` tells it, every task up close as `cfa inspect --task`
// shows it (verdicts and the commands the engine recorded), the job's tree as `cfa inspect`
// shows it, and the artifacts themselves. Pure: the caller reads the records and writes the
// file.
//
// Nearly everything here was written by an agent or a person: Markdown goes through
// safe-markdown.ts, every other text through escapeHtml, and the page's own two scripts
// are the only ones it runs — its Content-Security-Policy names them by hash, so a script
// that got in anyway would not run, and it allows no request of any kind.

import { createHash } from "node:crypto";
import { DIAGRAM_SCRIPT } from "./diagram-script.js";
import { escapeHtml } from "./escape-html.js";
import { plainGlyphs } from "./plain-glyphs.js";
import { safeMarkdown } from "./safe-markdown.js";

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface JobPageFacts {
  job: number;
  title: string;
  state: string;
  /** The branch and commit the records were read from. */
  ref: string;
  head: string;
  /** The status comment's Markdown, rendered from the records. */
  status: string;
  /** `cfa watch --verbose` lines. */
  history: string[];
  /** `cfa inspect` lines. */
  tree: string[];
  tasks: { id: string; status: string; lines: string[] }[];
  artifacts: { name: string; path: string; text: string; show: string }[];
  /** mermaid's bundle, ready to inline (mermaid-script.ts), or null when not installed. */
  mermaid: string | null;
  /** When mermaid is missing: why, and the command that fixes it (mermaid-script.ts). */
  missing?: string;
  /** When the page was written (ISO). */
  writtenAt: string;
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem 2rem;color:#1f2328}
h1{font-size:1.6rem;overflow-wrap:anywhere}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2rem;margin-top:2rem}
pre{background:#f6f8fa;padding:.8rem;font-size:13px;line-height:1.35;white-space:pre-wrap;overflow-wrap:anywhere}
code{background:#f6f8fa;padding:0 .2rem;overflow-wrap:anywhere}pre code{padding:0}
table{border-collapse:collapse;max-width:100%}td,th{border:1px solid #d0d7de;padding:.2rem .5rem;vertical-align:top;overflow-wrap:anywhere}
pre.mermaid{background:none;white-space:pre}pre.mermaid svg{max-width:100%;height:auto}
pre.mermaid .edgeLabel,pre.mermaid .edgeLabel p,pre.mermaid .labelBkg{background:none!important}
pre.mermaid .edgeLabel rect{fill:none!important;stroke:none!important}
nav a{margin-right:1rem}.meta{color:#59636e}
article{border:1px solid #d0d7de;border-radius:6px;padding:0 1rem;margin:1rem 0}
details>summary{cursor:pointer}.note{background:#fff8c5;padding:.5rem}
.markdown-alert{padding:.25rem 1rem;margin:1rem 0;border-left:.25em solid #0969da}
.markdown-alert>:last-child{margin-bottom:.5rem}.markdown-alert-title{font-weight:600;margin:.5rem 0 .25rem}
.markdown-alert-note{border-color:#0969da}.markdown-alert-note .markdown-alert-title{color:#0969da}
.markdown-alert-tip{border-color:#1a7f37}.markdown-alert-tip .markdown-alert-title{color:#1a7f37}
.markdown-alert-important{border-color:#8250df}.markdown-alert-important .markdown-alert-title{color:#8250df}
.markdown-alert-warning{border-color:#9a6700}.markdown-alert-warning .markdown-alert-title{color:#9a6700}
.markdown-alert-caution{border-color:#cf222e}.markdown-alert-caution .markdown-alert-title{color:#cf222e}
`;

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

export function renderJobPage(facts: JobPageFacts): string {
  const e = escapeHtml;
  const scripts = facts.mermaid === null ? [] : [facts.mermaid, DIAGRAM_SCRIPT];
  // No request of any kind (default-src 'none'); only the page's own scripts, by hash.
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.length > 0 ? scripts.map(sha256).join(" ") : "'none'"}`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src data:",
  ].join("; ");
  // The engine's own lines in glyphs every font has (plain-glyphs.ts).
  const pre = (lines: readonly string[]) => `<pre>${e(plainGlyphs(lines.join("\n")))}</pre>`;
  const body = [
    `<h1>cfa job #${facts.job}: ${e(facts.title)}</h1>`,
    `<p class="meta">${e(facts.state)} · records of <code>${e(facts.ref)}</code> at <code>${e(facts.head.slice(0, 12))}</code> · page written ${e(facts.writtenAt)}</p>`,
    `<nav><a href="#status">Status</a><a href="#history">History</a><a href="#tasks">Tasks</a><a href="#tree">Tree</a><a href="#artifacts">Artifacts</a></nav>`,
    facts.mermaid === null
      ? `<p class="note" id="no-mermaid">${safeMarkdown(`${capitalised(facts.missing ?? "the optional package mermaid is not installed beside cfa-bot, so the diagrams are shown as their Mermaid source")}.`).replace(/^<p>|<\/p>\n?$/g, "")}</p>`
      : "",
    `<section id="status"><h2>Status comment</h2>${safeMarkdown(plainGlyphs(facts.status))}</section>`,
    `<section id="history"><h2>History</h2>${pre(facts.history)}</section>`,
    `<section id="tasks"><h2>Tasks</h2>`,
    facts.tasks.length === 0 ? "<p>No task was dispatched.</p>" : "",
    ...facts.tasks.map(
      (t) =>
        `<details id="task-${e(t.id)}"><summary>task ${e(t.id)} — ${e(t.status)}</summary>${pre(t.lines)}</details>`,
    ),
    `</section>`,
    `<section id="tree"><h2>The job as a tree</h2>${pre(facts.tree)}</section>`,
    `<section id="artifacts"><h2>Artifacts</h2>`,
    facts.artifacts.length === 0 ? "<p>None written yet.</p>" : "",
    ...facts.artifacts.map(
      (a) =>
        `<article id="artifact-${e(a.name)}"><h3>${e(a.name)}</h3><p class="meta"><code>${e(a.show)}</code></p>${safeMarkdown(a.text)}</article>`,
    ),
    `</section>`,
  ];
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${e(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>cfa job #${facts.job}: ${e(facts.state)} — ${e(facts.title)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    ...body.filter((part) => part !== ""),
    ...scripts.map((code) => `<script>${code}</script>`),
    "</body></html>",
    "",
  ].join("\n");
}
