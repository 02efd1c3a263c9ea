// The status comment is a pure function of the records: tested without mocks.

import { describe, expect, it } from "vitest";
import { newJobRecord } from "../../../src/protocol/job-record.js";
import { transition } from "../../../src/protocol/transition.js";
import { initialEngineState, withEngineState } from "../../../src/records/engine-state.js";
import { renderStatusComment } from "../../../src/comments/status-comment.js";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";

const at = "2026-11-22T10:00:00.000Z";

describe("the status comment", () => {
  const engine = {
    ...initialEngineState("ana"),
    tasks: {
      api: {
        thread: "dispatch:api",
        branch: "cfa/7-api",
        dir: "task-api",
        base: "b",
        brief: "x",
        status: "merged" as const,
        verifyFailures: 1,
        lastVerdict: "pass" as const,
      },
    },
  };
  let job = withEngineState(newJobRecord({ job: 7, title: "Add a flag", at }), engine);
  job = transition(job, "APPROVED_INTENT", {
    at,
    by: "intent-lead@state:intent:1",
    reason: "approved by @ana",
  });

  const body = renderStatusComment({
    job,
    engine,
    waitingOn: "@ana to review PLAN.md",
    links: { pr: "https://github.com/o/r/pull/9", artifacts: [{ name: "INTENT.md", url: "u" }] },
  });

  it("says the state and whose move it is", () => {
    expect(body).toContain("cfa job #7: **PLAN**");
    expect(body).toContain("**Next move:** @ana to review PLAN.md");
  });
  it("lists tasks with their verifier verdicts", () => {
    // A record from before verdicts carried evidence has none at all: shown as it was.
    expect(body).toContain("| `api` | merged | — | pass (1 failed) |");
  });
  it("shows the history without pinging anyone named in an agent's reason", () => {
    expect(body).toContain(
      "INTENT → **PLAN** (APPROVED_INTENT by intent-lead@state:intent:1): approved by @\u200bana",
    );
  });
  it("a paused job says PAUSED in its heading, by whom (not pinged), since when and why", () => {
    const paused = renderStatusComment({
      job,
      engine: { ...engine, paused: { by: "ana", since: at, reason: "wait for @bob's\nreview" } },
      waitingOn: "a person to resume it",
      links: { artifacts: [] },
    });
    expect(paused).toContain("cfa job #7: **PLAN** · ⏸️ **PAUSED**");
    expect(paused).toContain(
      `> **Paused** by @\u200bana since ${at}: wait for @\u200bbob's review. No agent runs until \`/resume\`.`,
    );
    expect(body).not.toContain("PAUSED");
  });
  it("is found again by its hidden block", () => {
    expect(readHiddenBlock(body)).toEqual({ v: 1, job: 7, kind: "status" });
  });
  it("shows the picture: the state machine with PLAN current and the dispatch tree", () => {
    const blocks = body.match(/```mermaid\n[\s\S]*?\n```/g) ?? [];
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain("class PLAN current");
    expect(blocks[0]).toContain(`INTENT ==>|"APPROVED_INTENT (taken)"| PLAN`);
    expect(blocks[1]).toContain('t0["api: merged, verifier pass"]');
    // The hidden block still ends the comment: the picture does not displace it.
    expect(body.trimEnd().endsWith("-->")).toBe(true);
  });
});

describe("one vocabulary for task statuses", () => {
  it("the table and the picture say the same words for each status (4 statuses)", () => {
    const task = (status: "open" | "merged" | "conflict" | "dropped") => ({
      thread: `dispatch:${status}`,
      branch: `cfa/7-${status}`,
      dir: `task-${status}`,
      base: "b",
      brief: "x",
      status,
      verifyFailures: 0,
    });
    const engine = {
      ...initialEngineState("ana"),
      tasks: {
        a: task("open"),
        b: task("merged"),
        c: task("conflict"),
        d: task("dropped"),
      },
    };
    const job = withEngineState(newJobRecord({ job: 7, title: "x", at }), engine);
    const body = renderStatusComment({ job, engine, waitingOn: "w", links: { artifacts: [] } });
    const words = { a: "working", b: "merged", c: "merge conflict", d: "dropped" };
    const tree = (body.match(/```mermaid\n[\s\S]*?\n```/g) ?? [])[1]!;
    for (const [id, word] of Object.entries(words)) {
      expect(body).toContain(`| \`${id}\` | ${word} | — |`);
      expect(tree).toContain(`"${id}: ${word}"`);
    }
    expect(body).not.toMatch(/\| (open|conflict) \|/);
  });
});

describe("a big job's table stays readable", () => {
  it("lists the tasks that matter and counts the rest (30 tasks: 5 rows, 25 counted)", () => {
    const task = (status: "open" | "merged" | "conflict") => ({
      thread: "t",
      branch: "b",
      dir: "d",
      base: "b",
      brief: "x",
      status,
      verifyFailures: 0,
    });
    const tasks: Record<string, ReturnType<typeof task>> = {};
    for (let i = 0; i < 25; i++) tasks[`m${String(i).padStart(2, "0")}`] = task("merged");
    tasks["c"] = task("conflict");
    for (let i = 0; i < 4; i++) tasks[`w${i}`] = task("open");
    const engine = { ...initialEngineState("ana"), tasks };
    const job = withEngineState(newJobRecord({ job: 7, title: "x", at }), engine);
    const body = renderStatusComment({ job, engine, waitingOn: "w", links: { artifacts: [] } });
    const rows = body.split("\n").filter((l) => /^\| `/.test(l));
    expect(rows).toEqual([
      "| `c` | merge conflict | — | — |",
      "| `w0` | working | — | — |",
      "| `w1` | working | — | — |",
      "| `w2` | working | — | — |",
      "| `w3` | working | — | — |",
    ]);
    expect(body).toContain("25 more tasks not listed: 25 merged.");
  });
});

describe("the status comment of a follow-up (docs/protocol.md#jobs-and-states)", () => {
  const request = {
    kind: "review" as const,
    id: 81,
    by: "ana",
    at,
    commit: "c0ffee0",
    body: "Say hello to @bob too",
    comments: [],
  };
  const engine = {
    ...initialEngineState("ana"),
    followUp: {
      round: 2,
      parent: { round: 1, state: "DONE" as const, commit: "d0ne", dir: ".cfa/jobs/7" },
      base: "ba5e",
      request,
      priorTasks: ["api"],
    },
  };
  const job = withEngineState(
    newJobRecord({
      job: 7,
      title: "Add a flag",
      at,
      priorEntries: { INTENT: 1, PLAN: 1, EXECUTE: 1 },
    }),
    engine,
  );
  const body = renderStatusComment({
    job,
    engine,
    waitingOn: "@ana to review INTENT.md",
    links: { artifacts: [] },
    rounds: [
      { round: 1, state: "DONE", turns: 12, costUsd: 0.31, request: null, requester: "ana" },
      { round: 2, state: "INTENT", turns: 1, costUsd: 0.02, request, requester: "ana" },
    ],
  });

  it("names the round in its heading and shows every round in order, this one marked now", () => {
    expect(body).toContain("cfa job #7 · follow-up 2: **INTENT**");
    expect(body).toContain(
      [
        "| round | asked by | state | turns | cost |",
        "|---|---|---|---|---|",
        "| 1 — the job | the issue, for @\u200bana | DONE | 12 | $0.31 |",
        "| 2 — follow-up 2 | review 81 requesting changes, by @\u200bana | **INTENT** (now) | 1 | $0.02 |",
      ].join("\n"),
    );
  });

  it("draws the rounds as a chain (the request's text, a person's, is not drawn)", () => {
    expect(body).toContain('r0(["the job: DONE"])');
    expect(body).toContain('r0 ==>|"review by #64;ana"| r1');
    expect(body).not.toContain("Say hello");
    // The state machine's start is the follow-up's request.
    expect(body).toContain("follow-up 2#39;s request");
  });
});
