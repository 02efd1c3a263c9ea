// `cfa show N`, the job page: one self-contained HTML page of a real job's records
// — the status comment with its pictures, the history, the tasks with their verdicts and the
// commands they rest on, the job's tree, the artifacts — loaded in jsdom: every diagram
// parses with the mermaid package, and nothing on it loads from anywhere.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { renderJobPage } from "../../../src/cli/page/job-page.js";
import { plainGlyphs } from "../../../src/cli/page/plain-glyphs.js";
import { runScriptedJob, type ScriptedJob } from "../../support/cli/scripted-job.js";
import { captureIo } from "../../support/cli/capture-io.js";
import {
  allowedScriptHashes,
  CHROMIUM,
  diagramsOf,
  drawnPage,
  mermaidParse,
  pageDom,
  riskyAttributes,
  sha256,
} from "../../support/page/load-page.js";
import { bound } from "../../support/time-bound.js";

/**
 * Opens `file` in the installed chromium at 1280×800 (playwright-core drives it over the
 * DevTools protocol: https://playwright.dev/docs/api/class-browsertype#browser-type-launch,
 * `executablePath`), waits until each diagram is drawn, and returns what `probe` reads.
 */
async function inBrowser<T>(file: string, probe: () => T): Promise<T> {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM!, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`file://${file}`);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll("pre.mermaid")].every(
          (pre) => pre.getAttribute("data-processed") === "true" || document.scripts.length === 0,
        ),
      undefined,
      { timeout: bound(120_000) },
    );
    return await page.evaluate(probe);
  } finally {
    await browser.close();
  }
}

let scripted: ScriptedJob;
let out: string;
let printed: string;
let html: string;
let doc: Document;
beforeAll(async () => {
  scripted = await runScriptedJob();
  out = join(scripted.job.repoDir, "..", "page", "job-1.html");
  const io = captureIo({ cwd: scripted.job.repoDir });
  expect(await main(["show", "1", "--out", out], io)).toBe(0);
  expect(io.err()).toBe("");
  printed = io.out();
  html = readFileSync(out, "utf8");
  doc = pageDom(html);
}, bound(120_000));
afterAll(async () => scripted?.job.cleanup());

const text = (selector: string) => doc.querySelector(selector)?.textContent ?? "";

describe("cfa show", () => {
  it("prints the page's path, and the default path is in the repository's git dir", async () => {
    expect(printed).toBe(`${out}\n`);
    const io = captureIo({ cwd: scripted.job.repoDir });
    expect(await main(["show", "1"], io)).toBe(0);
    expect(io.out().trim()).toMatch(/\/\.git\/cfa-local\/job-1\.html$/);
    expect(readFileSync(io.out().trim(), "utf8")).toContain("<h1>cfa job #1: Greet the world</h1>");
  });

  it("shows the status comment, rendered: the state, the next move, the task table", () => {
    const status = text("#status");
    expect(status).toContain("cfa job #1: DONE");
    expect(status).toContain("Next move:");
    expect(doc.querySelector("#status table")).not.toBeNull();
    expect(status).toContain("greet");
    // Its artifact links point into the page.
    const links = [...doc.querySelectorAll("#status a")].map((a) => a.getAttribute("href"));
    expect(links).toEqual([
      "#artifact-INTENT.md",
      "#artifact-PLAN.md",
      "#artifact-WORK_SUMMARY.md",
    ]);
  });

  it("draws the status comment's pictures: every diagram parses with the mermaid package", async () => {
    const diagrams = diagramsOf(doc);
    expect(diagrams.length).toBeGreaterThanOrEqual(2);
    for (const d of diagrams) await expect(mermaidParse(d), d).resolves.toBeTruthy();
    // A control: the parser does reject a broken diagram.
    await expect(mermaidParse("flowchart TD\n  A -->")).rejects.toThrow();
    // The bundle is inlined and only the page's own scripts may run (by hash).
    const scripts = [...doc.querySelectorAll("script")].map((s) => s.textContent ?? "");
    expect(scripts).toHaveLength(2);
    expect(scripts[0]!.length).toBeGreaterThan(1_000_000);
    expect(allowedScriptHashes(doc).sort()).toEqual(scripts.map(sha256).sort());
  });

  it("tells the history as cfa watch --verbose does", async () => {
    const io = captureIo({ cwd: scripted.job.repoDir });
    expect(await main(["watch", "1", "--verbose"], io)).toBe(0);
    const watched = io
      .out()
      .split("\n")
      .filter((l) => l.startsWith("[#1] "));
    // In plain glyphs: the page draws no emoji (plain-glyphs.ts).
    expect(text("#history pre").split("\n")).toEqual(watched.map(plainGlyphs));
  });

  it("shows each task up close with its verdicts and the commands they rest on", () => {
    const task = text("#task-greet pre");
    expect(text("#task-greet summary")).toBe("task greet — merged");
    expect(task).toContain("Task greet of job #1 — merged");
    expect(task).toContain("Write hello.txt saying hello");
    expect(task).toContain("hello.txt has no final newline");
    expect(task).toContain("$ cat hello.txt → exit 0, no count");
    expect(text("#tree pre")).toContain("task greet");
  });

  it("holds each artifact, with the git command that shows it", () => {
    for (const [name, words] of [
      ["INTENT.md", "Greet in English."],
      ["PLAN.md", "One task: greet."],
      ["WORK_SUMMARY.md", "hello.txt."],
    ] as const) {
      const article = doc.getElementById(`artifact-${name}`)!;
      expect(article.textContent, name).toContain(words);
      expect(article.textContent).toContain(`show cfa/1:.cfa/jobs/1/${name}`);
    }
  });

  it("makes no request: no src, no href but the page's own anchors, a policy of none", () => {
    expect(riskyAttributes(doc)).toEqual([]);
    const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!;
    expect(csp.getAttribute("content")).toMatch(/^default-src 'none'; script-src 'sha256-/);
    expect(html).not.toMatch(/(?:src|href)\s*=\s*["']?https?:/i);
  });

  // A real browser where one is installed (Debian's chromium; never downloaded): the page's
  // policy allows no eval and no load, so this is where a drawing that needs either would
  // fail. --dump-dom prints the DOM after the page's scripts ran (virtual time lets them end).
  it.skipIf(CHROMIUM === null)(
    "is drawn by a real browser: every diagram becomes an svg",
    async () => {
      const drawn = await drawnPage(out);
      const pres = [...drawn.querySelectorAll("pre.mermaid")];
      expect(pres.length).toBe(diagramsOf(doc).length);
      for (const pre of pres) {
        expect(pre.getAttribute("data-processed")).toBe("true");
        expect(pre.querySelector("svg")).not.toBeNull();
        expect(pre.textContent).not.toMatch(/Syntax error/i);
      }
    },
    150_000,
  );

  // The page as a person reads it, in the same browser driven by playwright-core (it launches
  // the installed chromium, never a downloaded one): its layout judged by what the DOM
  // reports at 1280 px, not by pixels.
  it.skipIf(CHROMIUM === null)(
    "reads well at 1280 px: no sideways scroll, the history once, the path bold and the rest faint, plain glyphs, local verbs",
    async () => {
      const facts = await inBrowser(out, () => {
        const wide = (el: Element) => el.scrollWidth > el.clientWidth + 1;
        const visibleText = [...document.querySelectorAll("body > :not(#artifacts)")]
          .map((el) => (el as HTMLElement).innerText)
          .join("\n");
        const label = document.querySelector("pre.mermaid .edgeLabel");
        return {
          pageScrolls: wide(document.documentElement),
          scrollingBlocks: [...document.querySelectorAll("pre, table, svg")].filter(wide).length,
          histories: [...document.querySelectorAll("h2, summary")].filter(
            (el) => el.textContent?.trim() === "History",
          ).length,
          emoji: [...visibleText.matchAll(/\p{Extended_Pictographic}/gu)].map((m) => m[0]),
          unreached: [...document.querySelectorAll("pre.mermaid g.node.unreached")].length,
          taken: [...document.querySelectorAll("pre.mermaid .flowchart-link")].filter(
            (path) => parseFloat(getComputedStyle(path).strokeWidth) >= 3,
          ).length,
          labelBackground: label ? getComputedStyle(label).backgroundColor : "no label",
          status: (document.querySelector("#status") as HTMLElement).innerText,
        };
      });
      expect(facts.pageScrolls).toBe(false);
      expect(facts.scrollingBlocks).toBe(0);
      expect(facts.histories).toBe(1);
      expect(facts.emoji).toEqual([]);
      expect(facts.unreached).toBeGreaterThan(0); // FAILURE and WITHDRAWN, never reached
      expect(facts.taken).toBeGreaterThan(0);
      expect(facts.labelBackground).toBe("rgba(0, 0, 0, 0)");
      expect(facts.status).toContain(`cfa approve 1 --repo ${scripted.job.repoDir}`);
      expect(facts.status).not.toContain("/withdraw");
    },
    150_000,
  );

  it.skipIf(CHROMIUM === null)(
    "draws GitHub's alerts as GitHub does, and wraps a long line rather than scroll",
    async () => {
      const page = join(scripted.job.repoDir, "..", "page", "alerts.html");
      writeFileSync(
        page,
        renderJobPage({
          job: 2,
          title: "Alerts",
          state: "PLAN (paused)",
          ref: "cfa/2",
          head: "0".repeat(40),
          status:
            "> [!IMPORTANT]\n> **Paused** by @ana.\n\n> [!NOTE]\n> A note.\n\n> a plain quote",
          history: [`[#2] 09:30:00 GATE APPROVAL ⏸ ${"very/long/path/".repeat(60)}`],
          tree: ["job #2"],
          tasks: [],
          artifacts: [],
          mermaid: null,
          missing:
            "the optional package mermaid is not installed beside cfa-bot; run `npm install --prefix /x --no-save mermaid@12.3.0`",
          writtenAt: "2026-03-02T09:30:00.000Z",
        }),
      );
      const facts = await inBrowser(page, () => ({
        alerts: [...document.querySelectorAll(".markdown-alert")].map((el) => [
          el.className,
          el.querySelector(".markdown-alert-title")?.textContent,
          getComputedStyle(el).borderLeftStyle,
        ]),
        literal: document.body.innerText.includes("[!IMPORTANT]"),
        quotes: document.querySelectorAll("blockquote").length,
        pageScrolls:
          document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
        history: (document.querySelector("#history pre") as HTMLElement).innerText,
        note: (document.querySelector("#no-mermaid") as HTMLElement).innerText,
      }));
      expect(facts.alerts).toEqual([
        ["markdown-alert markdown-alert-important", "Important", "solid"],
        ["markdown-alert markdown-alert-note", "Note", "solid"],
      ]);
      expect(facts.literal).toBe(false);
      expect(facts.quotes).toBe(1);
      expect(facts.pageScrolls).toBe(false);
      expect(facts.history).toContain("GATE APPROVAL ‖ very/long");
      expect(facts.note).toContain("npm install --prefix /x --no-save mermaid@12.3.0");
    },
    150_000,
  );

  it("says one clear line for a job that does not exist", async () => {
    const io = captureIo({ cwd: scripted.job.repoDir });
    expect(await main(["show", "7"], io)).not.toBe(0);
    expect(io.err()).toMatch(/there is no job #7 in .* \(no branch cfa\/7\)\./);
  });
});
