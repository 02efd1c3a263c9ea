// watch, inspect and the next step, rendered from the records of a real scripted job.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderInspect } from "../../../src/cli/inspect-render.js";
import { readJobView, type JobView } from "../../../src/cli/job-view.js";
import { createLiveLog, formatLogLine } from "../../../src/cli/live-log.js";
import { nextStep } from "../../../src/cli/next-step.js";
import { renderWatch } from "../../../src/cli/watch-render.js";
import { clean, renderTask } from "../../../src/cli/task-render.js";
import { priceOf, resolveModel } from "../../../src/wiring/index.js";
import { runScriptedJob, type ScriptedJob } from "../../support/cli/scripted-job.js";
import { bound } from "../../support/time-bound.js";

let scripted: ScriptedJob;
let view: JobView;
beforeAll(async () => {
  scripted = await runScriptedJob();
  view = readJobView(scripted.texts);
}, bound(120_000));
afterAll(async () => scripted?.job.cleanup());

const said = (lines: { who: string; event: string; detail: string }[]) =>
  lines.map((l) => `${l.who} ${l.event} ${l.detail}`);

describe("the records of a finished job", () => {
  it("parse without problems and reach DONE", () => {
    expect(view.problems).toEqual([]);
    expect(view.job?.state).toBe("DONE");
    expect(view.pending).toEqual([]);
    expect(view.instances.map((i) => i.key)).toEqual([
      "intent-lead@state:intent:1",
      "project-lead@state:execute:1",
      "project-lead@state:plan:1",
      "verifier@verify:greet-1",
      "verifier@verify:greet-2",
      "worker@dispatch:greet",
    ]);
  });
});

describe("renderWatch", () => {
  it("tells the job's story in log order, each line at its bus line's time", () => {
    const lines = renderWatch(view);
    const text = said(lines);
    const order = [
      'JOB START "Greet the world"',
      "INTENT START intent-lead sparked on state:intent:1",
      "intent-lead@state:intent:1 ASK q1: English or French?",
      "ASK QUESTION ⏸ q1 waits for @ana's answer: English or French?",
      "HUMAN ANSWER q1 by @ana: English, please",
      "intent-lead@state:intent:1 ASSERT q2: INTENT.md ready",
      "HUMAN APPROVED q2 by @ana",
      "PLAN APPROVED_INTENT INTENT → PLAN: approved",
      "PLAN START project-lead sparked on state:plan:1",
      "EXECUTE APPROVED_PLAN PLAN → EXECUTE: approved",
      "EXECUTE DISPATCH task greet: Write hello.txt saying hello",
      "worker@dispatch:greet REPLY hello.txt written",
      "VERIFY VERDICT greet ✗ fail — hello.txt has no final newline",
      "worker@dispatch:greet REPLY added the final newline",
      "VERIFY VERDICT greet ✓ pass (cat hello.txt: exit 0, no count)",
      "EXECUTE MERGED task greet into cfa/1",
      "HUMAN APPROVED q4 by @ana",
      "DONE APPROVED_WORK EXECUTE → DONE: approved",
    ];
    let at = -1;
    for (const expected of order) {
      const found = text.indexOf(expected, at + 1);
      expect(found, `${expected} after line ${at}`).toBeGreaterThan(at);
      at = found;
    }
    const times = new Set(view.lines.map((l) => l.at));
    const seqs = lines.map((l) => l.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    for (const l of lines.filter((l) => l.event !== "APPROVED_INTENT")) {
      if (!/^(APPROVED_|REALIGN|REPLAN|WITHDRAW|FAILURE)/.test(l.event))
        expect(times).toContain(l.at);
    }
  });

  it("gives a gate its artifact and commit, and each lead turn its tool calls and outcome", () => {
    const text = said(renderWatch(view));
    expect(text).toContainEqual(
      expect.stringMatching(/^GATE APPROVAL ⏸ INTENT\.md waits for @ana's review at [0-9a-f]{7}$/),
    );
    expect(text).toContain("intent-lead@state:intent:1 TURN turn 1 (2 tool calls)");
    expect(text).toContain("intent-lead@state:intent:1 TURN turn 3 (1 tool call): APPROVED_INTENT");
    // The turn that closed the task, wrote the summary and asked is one turn, not two.
    const execute = text.filter((t) => t.startsWith("project-lead@state:execute:1 TURN"));
    expect(execute).toEqual([
      "project-lead@state:execute:1 TURN turn 1 (1 tool call)",
      "project-lead@state:execute:1 TURN turn 2 (1 tool call)",
      "project-lead@state:execute:1 TURN turn 3 (3 tool calls)",
      "project-lead@state:execute:1 TURN turn 4 (1 tool call): APPROVED_WORK",
    ]);
  });

  it("marks the task's lines verbose and the job's lines not", () => {
    const lines = renderWatch(view);
    const worker = lines.filter((l) => l.who === "worker@dispatch:greet");
    expect(worker.length).toBeGreaterThan(0);
    expect(worker.every((l) => l.verbose)).toBe(true);
    expect(lines.filter((l) => l.who === "GATE").every((l) => !l.verbose)).toBe(true);
  });

  it("prints per-task lines only with --verbose", () => {
    const print = (verbose: boolean) => {
      const log = createLiveLog({ verbose, timeZone: "UTC" });
      return [...renderWatch(view).flatMap((l) => log.push(l)), ...log.end()].join("\n");
    };
    expect(print(false)).not.toContain("worker:greet");
    expect(print(false)).toContain("EXECUTE       DISPATCH  1 task: greet");
    expect(print(true)).toContain("worker:greet  REPLY     hello.txt written");
    expect(print(true)).toContain("[#1] 10:00:");
  });

  it("is what the formatter prints for each line", () => {
    const first = renderWatch(view)[0]!;
    expect(formatLogLine(first, { timeZone: "UTC" })).toMatch(
      /^\[#1\] 10:00:\d\d JOB {11}START {5}"Greet the world"$/,
    );
  });
});

describe("renderInspect", () => {
  const render = () => renderInspect(view, { resolveModel, price: priceOf, timeZone: "UTC" });

  it("draws job → states → gates, tasks and instances", () => {
    const text = render().join("\n");
    expect(text).toMatch(/^Job #1 "Greet the world" — DONE · \d+ turns · /);
    expect(text).toContain("├── INTENT ✓ APPROVED_INTENT at 10:");
    expect(text).toContain("│   ├── question q1: English or French? — answered by @ana");
    expect(text).toMatch(/│ {3}├── gate q2 INTENT\.md at [0-9a-f]{7} — approved by @ana/);
    expect(text).toContain("│   ├── artifact .cfa/jobs/1/INTENT.md");
    expect(text).toMatch(/│ {3}└── intent-lead@state:intent:1 — 3 turns, 5 tool calls, /);
    expect(text).toContain(
      "│   └── task greet — merged, verifier ✓ pass after 2 attempts (cfa/1-greet)",
    );
    expect(text).toContain("│       ├── brief: Write hello.txt saying hello");
    expect(text).toContain("│       ├── files: hello.txt");
    expect(text).toMatch(/│ {7}├── verifier@verify:greet-1 \(fail\) — 1 turn, 1 tool call, /);
    expect(text).toMatch(/│ {7}└── verifier@verify:greet-2 \(pass\) — 1 turn, /);
    expect(text).toContain("└── DONE at 10:");
  });

  it("sums to the job record's turns and cost", () => {
    const job = view.job!;
    const totals = render().find((l) => l.startsWith("Totals"))!;
    expect(totals).toContain(`over 6 instances: ${job.turns} turns`);
    const [, computed, recorded] =
      /(\$[\d.]+) at current prices \(state\.json records (\$[\d.]+)\)/.exec(totals)!;
    expect(computed).toBe(recorded);
    expect(job.costUsd).toBeGreaterThan(0);
  });
});

describe("renderTask (cfa inspect --task)", () => {
  it("shows the task up close: brief, replies, each verifier run with its commands and verdict, branch and merge", () => {
    const text = renderTask(view, "greet")!.join("\n");
    expect(text).toMatch(/^Task greet of job #1 — merged, verifier ✓ pass \(1 failed run\)/);
    expect(text).toMatch(/ {2}branch: cfa\/1-greet from cfa\/1 at [0-9a-f]{7}/);
    expect(text).toMatch(/ {2}merged into cfa\/1 at its verified head [0-9a-f]{7}/);
    expect(text).toContain("Brief:\n  Write hello.txt saying hello");
    expect(text).toContain("Worker worker@dispatch:greet: 2 turns; files written: hello.txt");
    expect(text).toContain(
      "Replies (2):\n  to project-lead@state:execute:1:\n    hello.txt written\n  to project-lead@state:execute:1:\n    added the final newline",
    );
    expect(text).toContain(
      "  verifier@verify:greet-1 — ✗ fail\n    commands it ran: none\n    - hello.txt has no final newline",
    );
    // The engine's record of the command (the verdict's evidence), not the transcript's words.
    expect(text).toMatch(
      / {2}verifier@verify:greet-2 — ✓ pass\n {4}commands it ran \(recorded\):\n {6}\$ cat hello\.txt → exit 0, no count \(\d+\.\d s\)\n {4}notes:\n {6}ok/,
    );
  });

  it("is null for a task the job does not have", () => {
    expect(renderTask(view, "nope")).toBeNull();
  });

  it("strips terminal control sequences an agent wrote, keeping line breaks (1 class: ESC/CSI)", () => {
    const hostile = "ok\u001b[2J\u001b]0;pwned\u0007\nnext\u009b31m";
    expect(clean(hostile)).toBe("ok[2J]0;pwned\nnext31m");
    // Positive control: without it the ESC reaches the terminal.
    expect(hostile).toContain("\u001b");
  });
});

describe("nextStep", () => {
  const options = { cli: "cfa", repoArg: "" };

  it("says what a finished job waits on: a merge, or a follow-up", () => {
    expect(nextStep(view, options)).toEqual([
      "DONE — the work is approved. Look it over and merge it: `git merge --no-ff cfa/1`.",
      '  more to do on it? `cfa followup 1 "…"` starts a follow-up on cfa/1.',
    ]);
  });

  it("names the repository in the merge when it is not the current folder, so the step works as written", () => {
    expect(nextStep(view, { cli: "cfa", repoArg: " --repo /r", repoDir: "/r" })).toEqual([
      "DONE — the work is approved. Look it over and merge it: `git -C /r merge --no-ff cfa/1`.",
      '  more to do on it? `cfa followup 1 "…" --repo /r` starts a follow-up on cfa/1.',
    ]);
    expect(nextStep(view, { cli: "cfa", repoArg: "", repoDir: "/my repo" })[0]).toContain(
      '`git -C "/my repo" merge --no-ff cfa/1`',
    );
  });

  it("names the open question and the command that answers it", () => {
    const waiting = readJobView(scripted.waitingTexts);
    expect(waiting.pending.map((p) => [p.id, p.kind])).toEqual([["q1", "question"]]);
    expect(nextStep(waiting, { cli: "npx cfa", repoArg: " --repo /r" })).toEqual([
      "INTENT — waiting on your answer to q1:",
      '  q1: English or French?\n    answer: `npx cfa answer 1 --id q1 "…" --repo /r`',
    ]);
  });
});
