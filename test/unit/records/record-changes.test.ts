import { describe, expect, it } from "vitest";
import { newJobRecord } from "../../../src/protocol/job-record.js";
import {
  engineState,
  initialEngineState,
  withEngineState,
  type TaskMeta,
  MCP_PROBLEMS_KEPT,
} from "../../../src/records/engine-state.js";
import {
  evolveRecords,
  BLOCKED_KEPT,
  HELD_BACK_KEPT,
  SETUP_RUNS_KEPT,
  nextEscalationId,
  type JobRecords,
  type RecordChange,
} from "../../../src/records/record-changes.js";

// Given records, when a change, then records: the engine's bookkeeping of state.json as pure
// updaters, with no git, no forge and no session.

function given(...changes: RecordChange[]): JobRecords {
  const start: JobRecords = {
    job: newJobRecord({ job: 4, title: "t", at: "2026-01-01T00:00:00Z" }),
    engine: initialEngineState("mona"),
  };
  return changes.reduce(evolveRecords, start);
}

function task(overrides: Partial<TaskMeta> = {}): TaskMeta {
  return {
    thread: "dispatch:a",
    branch: "cfa/4-a",
    dir: "task-a",
    base: "abc",
    brief: "do a",
    status: "open",
    verifyFailures: 0,
    ...overrides,
  };
}

const opened = (id = "a"): RecordChange => ({ type: "task-recorded", id, meta: task() });

const EVIDENCE = { command: "npm test", exitCode: 0, durationMs: 1200, summary: "3 passed" };
const FAILED = {
  workspace: "job",
  command: "npm ci",
  exitCode: 1,
  tail: "npm ERR! 404",
  at: "t",
  digest: "d1",
};
const BLOCK = {
  host: "evil.example",
  port: 443,
  protocol: "https" as const,
  reason: "not-allowed",
  command: "curl https://evil.example",
  count: 1,
};

describe("evolveRecords: setup, blocked requests, evidence", () => {
  it("a failed setup is what the job waits on; a later good run clears it; runs are bounded", () => {
    const failed = given({
      type: "setup-ran",
      run: { workspace: "job", at: "t1", ok: false, commands: [EVIDENCE] },
      failed: FAILED,
    });
    expect(failed.engine.setup?.failed).toEqual(FAILED);
    const retried = evolveRecords(failed, { type: "setup-retry-requested" });
    expect(retried.engine.setup?.failed?.retry).toBe(true);
    let r = retried;
    for (let i = 0; i < 15; i += 1) {
      r = evolveRecords(r, {
        type: "setup-ran",
        run: { workspace: `t${i}`, at: "t2", ok: true, commands: [] },
        failed: null,
      });
    }
    expect(r.engine.setup?.failed).toBeUndefined();
    expect(r.engine.setup?.runs).toHaveLength(SETUP_RUNS_KEPT);
    expect(r.engine.setup?.runs.at(-1)?.workspace).toBe("t14");
    // With nothing failed, a retry changes nothing.
    expect(evolveRecords(r, { type: "setup-retry-requested" })).toBe(r);
  });

  it("the same refused request of the same command is one entry, counted; past the bound the least recently seen make way for the newest, counted", () => {
    let r = given(
      { type: "requests-blocked", by: "setup", at: "t1", blocked: [BLOCK] },
      {
        type: "requests-blocked",
        by: "worker@dispatch:a",
        at: "t2",
        blocked: [{ ...BLOCK, count: 2 }],
      },
    );
    expect(r.engine.blocked?.entries).toEqual([
      { ...BLOCK, count: 3, by: "setup", first: "t1", last: "t2" },
    ]);
    for (let i = 0; i < BLOCKED_KEPT + 5; i += 1) {
      r = evolveRecords(r, {
        type: "requests-blocked",
        by: "setup",
        at: "t3",
        blocked: [{ ...BLOCK, host: `h${i}.example` }],
      });
    }
    expect(r.engine.blocked?.entries).toHaveLength(BLOCKED_KEPT);
    // The first (3 refusals, seen last at t2) and h0–h4 made way: every refusal still counted.
    expect(r.engine.blocked?.dropped).toBe(3 + 5);
    const hosts = r.engine.blocked?.entries.map((e) => e.host) ?? [];
    expect(hosts).not.toContain(BLOCK.host);
    expect(hosts.at(-1)).toBe(`h${BLOCKED_KEPT + 4}.example`);
    const total = (r.engine.blocked?.entries ?? []).reduce((n, e) => n + e.count, 0);
    expect(total + (r.engine.blocked?.dropped ?? 0)).toBe(3 + BLOCKED_KEPT + 5);
  });

  it("an MCP server's same problem is one line, counted; past the bound none is added", () => {
    let r = given(
      {
        type: "mcp-problem",
        server: "pw",
        reason: "did not start",
        by: "worker@dispatch:a",
        at: "t1",
      },
      {
        type: "mcp-problem",
        server: "pw",
        reason: "did not start",
        by: "verifier@verify:a-1",
        at: "t2",
      },
    );
    expect(r.engine.mcp?.problems).toEqual([
      {
        server: "pw",
        reason: "did not start",
        by: "worker@dispatch:a",
        count: 2,
        first: "t1",
        last: "t2",
      },
    ]);
    for (let i = 0; i < MCP_PROBLEMS_KEPT + 3; i += 1) {
      r = evolveRecords(r, {
        type: "mcp-problem",
        server: `s${i}`,
        reason: "x",
        by: "wake",
        at: "t3",
      });
    }
    expect(r.engine.mcp?.problems).toHaveLength(MCP_PROBLEMS_KEPT);
  });

  it("a verdict keeps its run's evidence; a worker's turn keeps its own", () => {
    const r = given(
      opened(),
      { type: "task-worked", id: "a", evidence: [EVIDENCE] },
      { type: "task-verified", id: "a", verdict: "pass", head: "h", run: 1, evidence: [] },
    );
    expect(r.engine.tasks.a?.workerEvidence).toEqual([EVIDENCE]);
    expect(r.engine.tasks.a?.verifierEvidence).toEqual([]);
  });
});

describe("evolveRecords: tasks", () => {
  it("a recorded task is kept under its id; recording it again replaces it", () => {
    const r = given(opened(), { type: "task-recorded", id: "a", meta: task({ status: "queued" }) });
    expect(Object.keys(r.engine.tasks)).toEqual(["a"]);
    expect(r.engine.tasks.a?.status).toBe("queued");
  });

  it("a status set changes the status and nothing else of the task", () => {
    const r = given(opened(), { type: "task-status-set", id: "a", status: "merged" });
    expect(r.engine.tasks.a).toEqual({ ...task(), status: "merged" });
  });

  it("an open task that ends with a time is measured start to end (merged, conflict, dropped: 3 counted); a queued one dropped, one without a start or without `at`, is not (3 not)", () => {
    const started = (id: string, at: string): RecordChange => ({
      type: "task-recorded",
      id,
      meta: task({ thread: `dispatch:${id}`, startedAt: at }),
    });
    const r = given(
      started("a", "2026-01-01T10:00:00.000Z"),
      started("b", "2026-01-01T10:00:00.000Z"),
      started("c", "2026-01-01T10:30:00.000Z"),
      { type: "task-status-set", id: "a", status: "merged", at: "2026-01-01T10:12:00.000Z" },
      { type: "task-status-set", id: "b", status: "conflict", at: "2026-01-01T10:06:00.000Z" },
      { type: "task-status-set", id: "c", status: "dropped", at: "2026-01-01T10:33:00.000Z" },
      // Not measured: never started, no start recorded (older records), no time given.
      { type: "task-recorded", id: "q", meta: task({ thread: "dispatch:q", status: "queued" }) },
      { type: "task-status-set", id: "q", status: "dropped", at: "2026-01-01T11:00:00.000Z" },
      { type: "task-recorded", id: "o", meta: task({ thread: "dispatch:o" }) },
      { type: "task-status-set", id: "o", status: "merged", at: "2026-01-01T11:00:00.000Z" },
      started("n", "2026-01-01T10:00:00.000Z"),
      { type: "task-status-set", id: "n", status: "merged" },
    );
    expect(r.engine.measured).toEqual({
      turns: 0,
      turnMs: 0,
      commandMs: 0,
      tasks: 3,
      taskMs: (12 + 6 + 3) * 60_000,
    });
    expect(r.engine.tasks.a?.status).toBe("merged");
    // A merged task set merged again (a resumed wake) is not counted twice.
    const again = evolveRecords(r, {
      type: "task-status-set",
      id: "a",
      status: "merged",
      at: "2026-01-01T12:00:00.000Z",
    });
    expect(again.engine.measured?.tasks).toBe(3);
  });

  it("task turns add up their time and their commands' (a command never counts more than its turn)", () => {
    const timed = (turnMs: number, commandMs: number): RecordChange => ({
      type: "task-turn-timed",
      id: "a",
      turnMs,
      commandMs,
      contendedMs: 0,
    });
    const r = given(opened(), timed(100_000, 80_000), timed(50_000, 0), timed(10_000, 30_000));
    expect(r.engine.measured).toEqual({
      turns: 3,
      turnMs: 160_000,
      commandMs: 90_000,
      tasks: 0,
      taskMs: 0,
    });
    expect(r.engine.tasks.a).not.toHaveProperty("contendedMs");
  });

  it("what a task's commands lost sharing the runner is kept on the task and taken off its time when it ends (20 minutes, 6 of them contended: 14 measured)", () => {
    const r = given(
      {
        type: "task-recorded",
        id: "a",
        meta: task({ startedAt: "2026-01-01T10:00:00.000Z" }),
      },
      {
        type: "task-turn-timed",
        id: "a",
        turnMs: 600_000,
        commandMs: 500_000,
        contendedMs: 240_000,
      },
      {
        type: "task-turn-timed",
        id: "a",
        turnMs: 300_000,
        commandMs: 200_000,
        contendedMs: 120_000,
      },
      // A turn of a task no longer recorded still counts in the job's share.
      { type: "task-turn-timed", id: "gone", turnMs: 100, commandMs: 0, contendedMs: 50 },
      { type: "task-status-set", id: "a", status: "merged", at: "2026-01-01T10:20:00.000Z" },
    );
    expect(r.engine.tasks.a?.contendedMs).toBe(360_000);
    expect(r.engine.tasks).not.toHaveProperty("gone");
    expect(r.engine.measured).toEqual({
      turns: 3,
      turnMs: 900_100,
      commandMs: 700_000,
      tasks: 1,
      taskMs: 14 * 60_000,
    });
  });

  it("a task that ended in a run of its own is measured less what that run added (12 minutes, 4.75 added: 7.25), never below 0", () => {
    const started = (id: string): RecordChange => ({
      type: "task-recorded",
      id,
      meta: task({ thread: `dispatch:${id}`, startedAt: "2026-01-01T10:00:00.000Z" }),
    });
    const r = given(
      started("a"),
      started("b"),
      {
        type: "task-status-set",
        id: "a",
        status: "merged",
        at: "2026-01-01T10:12:00.000Z",
        overheadMs: 4.75 * 60_000,
      },
      {
        type: "task-status-set",
        id: "b",
        status: "merged",
        at: "2026-01-01T10:01:00.000Z",
        overheadMs: 4.75 * 60_000,
      },
    );
    expect(r.engine.measured?.tasks).toBe(2);
    expect(r.engine.measured?.taskMs).toBe(7.25 * 60_000);
  });

  it("a status set or a verdict for a task never recorded is refused, naming it", () => {
    expect(() => given({ type: "task-status-set", id: "x", status: "dropped" })).toThrow(
      /no task x/,
    );
    expect(() =>
      given({ type: "task-verified", id: "x", verdict: "pass", head: "h", run: 1 }),
    ).toThrow(/no task x/);
  });

  it("a pass records the head verified; a later fail counts and forgets that head", () => {
    const passed = given(opened(), {
      type: "task-verified",
      id: "a",
      verdict: "pass",
      head: "h1",
      run: 1,
    });
    expect(passed.engine.tasks.a).toMatchObject({
      lastVerdict: "pass",
      verifiedHead: "h1",
      verifyFailures: 0,
      verifyRuns: 1,
    });
    const failed = evolveRecords(passed, {
      type: "task-verified",
      id: "a",
      verdict: "fail",
      head: "h2",
      run: 2,
    });
    expect(failed.engine.tasks.a).toMatchObject({
      lastVerdict: "fail",
      verifyFailures: 1,
      verifyRuns: 2,
    });
    expect(failed.engine.tasks.a).not.toHaveProperty("verifiedHead");
  });
});

describe("evolveRecords: escalations", () => {
  const asked: RecordChange = {
    type: "escalation-opened",
    meta: { caller: "lead", kind: "question", state: "INTENT", text: "why?" },
  };

  it("each opened escalation takes the next id q1, q2, … in order", () => {
    const r = given(asked, asked);
    expect(Object.keys(r.engine.escalations)).toEqual(["q1", "q2"]);
    expect(nextEscalationId(r.engine)).toBe("q3");
  });

  it("a note patches the escalation and keeps what it does not name", () => {
    const r = given(asked, { type: "escalation-noted", id: "q1", patch: { postedSeq: 3 } });
    expect(r.engine.escalations.q1).toEqual({
      caller: "lead",
      kind: "question",
      state: "INTENT",
      text: "why?",
      postedSeq: 3,
    });
  });

  it("a note on an escalation with no record is refused, naming it", () => {
    expect(() =>
      given({ type: "escalation-noted", id: "q9", patch: { verdict: "superseded" } }),
    ).toThrow(/escalation q9 has no record/);
  });
});

describe("evolveRecords: comments", () => {
  it("queued comments take consecutive seqs, rendered with their own seq", () => {
    const render = (seq: number) => ({ body: `comment ${seq}` });
    const r = given(
      { type: "comment-queued", kind: "transition", render },
      { type: "comment-queued", kind: "notice", render },
    );
    expect(r.engine.outbox).toEqual([
      { seq: 1, kind: "transition", body: "comment 1" },
      { seq: 2, kind: "notice", body: "comment 2" },
    ]);
    expect(r.engine.seq).toBe(3);
  });

  it("a posted outbox is empty and the seq keeps counting", () => {
    const r = given(
      { type: "comment-queued", kind: "notice", render: () => ({ body: "x" }) },
      { type: "outbox-posted" },
    );
    expect(r.engine.outbox).toEqual([]);
    expect(r.engine.seq).toBe(2);
  });

  it("the status comment's id, and the same records when it did not change", () => {
    const r = given({ type: "status-comment-posted", id: 77 });
    expect(r.engine.statusComment).toBe(77);
    expect(evolveRecords(r, { type: "status-comment-posted", id: 77 })).toBe(r);
  });
});

describe("evolveRecords: the forge", () => {
  it("the cursor read from the forge replaces the last one", () => {
    const cursor = { comment: 12, review: 3 };
    expect(given({ type: "people-read", cursor }).engine.cursor).toEqual(cursor);
  });

  it("a pull request found keeps the draft note as it was; one opened ready sets it", () => {
    expect(given({ type: "pull-request-found", number: 5 }).engine).toMatchObject({ pr: 5 });
    expect(given({ type: "pull-request-found", number: 5 }).engine).not.toHaveProperty(
      "prNotDraft",
    );
    expect(
      given({ type: "pull-request-opened", number: 6, draft: true, body: "d1" }).engine,
    ).not.toHaveProperty("prNotDraft");
    expect(
      given({ type: "pull-request-opened", number: 6, draft: false, body: "d1" }).engine,
    ).toMatchObject({
      pr: 6,
      prNotDraft: true,
    });
  });

  it("a pull request's body digest: kept when opened, replaced when described, forgotten when found", () => {
    const opened = given({ type: "pull-request-opened", number: 6, draft: true, body: "d1" });
    expect(opened.engine.prBody).toBe("d1");
    const described = evolveRecords(opened, { type: "pull-request-described", body: "d2" });
    expect(described.engine.prBody).toBe("d2");
    expect(evolveRecords(described, { type: "pull-request-described", body: "d2" })).toBe(
      described,
    );
    const found = evolveRecords(described, { type: "pull-request-found", number: 7 });
    expect(found.engine).not.toHaveProperty("prBody");
  });

  it("workflow files held back are remembered once each, sorted, at most 50", () => {
    const r = given(
      {
        type: "workflows-held-back",
        paths: [".github/workflows/b.yml", ".github/workflows/a.yml"],
      },
      { type: "workflows-held-back", paths: [".github/workflows/a.yml"] },
    );
    expect(r.engine.workflowsHeldBack).toEqual([
      ".github/workflows/a.yml",
      ".github/workflows/b.yml",
    ]);
    const many = Array.from({ length: 70 }, (_, i) => `.github/workflows/w${100 + i}.yml`);
    const capped = given({ type: "workflows-held-back", paths: many });
    expect(capped.engine.workflowsHeldBack).toHaveLength(HELD_BACK_KEPT);
    expect(capped.engine.workflowsHeldBack?.[0]).toBe(".github/workflows/w100.yml");
  });
});

describe("evolveRecords: turns, calls and the model's availability", () => {
  const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1 };

  it("a counted turn adds one to the job's turns and leaves the engine as it was", () => {
    const before = given();
    const after = evolveRecords(before, { type: "turn-counted" });
    expect(after.job.turns).toBe(1);
    expect(after.engine).toBe(before.engine);
  });

  it("a turn uncounted (stopped, to be redone) takes one back, never below zero", () => {
    const before = given({ type: "turn-counted" });
    expect(evolveRecords(before, { type: "turn-uncounted" }).job.turns).toBe(0);
    expect(evolveRecords(given(), { type: "turn-uncounted" }).job.turns).toBe(0);
  });

  it("each charged call adds its usage and price and takes the next call number", () => {
    const r = given(
      { type: "call-charged", usage, costUsd: 0.25 },
      { type: "call-charged", usage, costUsd: 0.5 },
    );
    expect(r.job.usage).toEqual({
      inputTokens: 20,
      outputTokens: 10,
      cacheReadTokens: 4,
      cacheWriteTokens: 2,
    });
    expect(r.job.costUsd).toBe(0.75);
    expect(r.engine.calls).toBe(2);
  });

  it("calls accounted up to a journal seq never go backwards", () => {
    expect(given({ type: "calls-accounted", through: 7 }).engine.calls).toBe(7);
    const r = given(
      { type: "calls-accounted", through: 7 },
      { type: "calls-accounted", through: 3 },
    );
    expect(r.engine.calls).toBe(7);
  });

  it("waiting on the API keeps the first since, adds the attempts and carries the journal", () => {
    const r = given(
      { type: "api-waiting", since: "t1", attempts: 3, last: "529", carried: ["line"] },
      { type: "api-waiting", since: "t2", attempts: 2, last: "x".repeat(400), carried: [] },
    );
    expect(r.engine.apiWait).toEqual({ since: "t1", attempts: 5, last: "x".repeat(300) });
    expect(r.engine.journal).toEqual(["line"]);
  });

  it("an answer ends the wait and an unloaded journal leaves the record; both no-ops after", () => {
    const waiting = given({
      type: "api-waiting",
      since: "t1",
      attempts: 1,
      last: "529",
      carried: ["line"],
    });
    const answered = evolveRecords(waiting, { type: "api-answered" });
    expect(answered.engine).not.toHaveProperty("apiWait");
    const unloaded = evolveRecords(answered, { type: "journal-unloaded" });
    expect(unloaded.engine).not.toHaveProperty("journal");
    expect(evolveRecords(unloaded, { type: "api-answered" })).toBe(unloaded);
    expect(evolveRecords(unloaded, { type: "journal-unloaded" })).toBe(unloaded);
  });

  it("a full disk pauses the job since its first sighting, counting pauses in a row; clearing ends the pause", () => {
    const full = given({ type: "disk-full", since: "t1", last: "No space left on device" });
    expect(full.engine.diskFull).toEqual({
      since: "t1",
      last: "No space left on device",
      pauses: 1,
    });
    const again = evolveRecords(full, {
      type: "disk-full",
      since: "t2",
      last: "Disk quota exceeded",
    });
    expect(again.engine.diskFull).toEqual({ since: "t1", last: "Disk quota exceeded", pauses: 2 });
    const cleared = evolveRecords(again, { type: "disk-cleared" });
    expect(cleared.engine).not.toHaveProperty("diskFull");
    expect(evolveRecords(cleared, { type: "disk-cleared" })).toBe(cleared);
  });

  it("a pause records who, since when and why (the reason cut to 500 characters); a resume clears it, a no-op after", () => {
    const paused = given({ type: "job-paused", by: "alice", since: "t1", reason: "x".repeat(600) });
    expect(paused.engine.paused).toEqual({ by: "alice", since: "t1", reason: "x".repeat(500) });
    const resumed = evolveRecords(paused, { type: "job-resumed" });
    expect(resumed.engine).not.toHaveProperty("paused");
    expect(evolveRecords(resumed, { type: "job-resumed" })).toBe(resumed);
  });

  it("transitions settled records how many of the history's have run their effects", () => {
    expect(given({ type: "transitions-settled", through: 2 }).engine.settled).toBe(2);
  });
});

describe("evolveRecords is pure and keeps state.json valid", () => {
  const every: RecordChange[] = [
    opened(),
    { type: "task-recorded", id: "b", meta: task({ thread: "dispatch:b", status: "queued" }) },
    { type: "task-status-set", id: "b", status: "dropped" },
    { type: "task-verified", id: "a", verdict: "pass", head: "h", run: 1 },
    {
      type: "escalation-opened",
      meta: { caller: "lead", kind: "gate", state: "PLAN", text: "ok?" },
    },
    { type: "escalation-noted", id: "q1", patch: { verdict: "superseded" } },
    { type: "comment-queued", kind: "notice", render: (seq) => ({ body: `n${seq}` }) },
    { type: "outbox-posted" },
    { type: "status-comment-posted", id: 1 },
    { type: "people-read", cursor: { comment: 1, review: 1 } },
    { type: "pull-request-found", number: 2 },
    { type: "pull-request-opened", number: 2, draft: false, body: "d1" },
    { type: "pull-request-described", body: "d2" },
    { type: "transitions-settled", through: 0 },
    { type: "turn-counted" },
    { type: "turn-uncounted" },
    {
      type: "call-charged",
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0.1,
    },
    { type: "calls-accounted", through: 1 },
    { type: "api-waiting", since: "t", attempts: 1, last: "e", carried: ["l"] },
    { type: "journal-unloaded" },
    { type: "api-answered" },
    { type: "disk-full", since: "t", last: "ENOSPC: no space left on device, write" },
    { type: "disk-cleared" },
    { type: "workflows-held-back", paths: [".github/workflows/ci.yml"] },
    { type: "task-worked", id: "a", evidence: [EVIDENCE] },
    {
      type: "setup-ran",
      run: { workspace: "job", at: "t", ok: false, commands: [EVIDENCE] },
      failed: FAILED,
    },
    { type: "setup-retry-requested" },
    { type: "requests-blocked", by: "worker@dispatch:a", at: "t", blocked: [BLOCK] },
    {
      type: "mcp-problem",
      server: "pw",
      reason: "did not start",
      by: "worker@dispatch:a",
      at: "t",
    },
    { type: "job-paused", by: "alice", since: "t", reason: "the weekend" },
    { type: "job-resumed" },
    {
      type: "task-run-recorded",
      id: "a",
      ledger: {
        epoch: 1,
        folded: 0,
        charged: {},
        allowanceUsd: 5,
        callUsd: 1,
        runId: "9",
        deaths: 0,
        refused: [],
      },
    },
    { type: "task-run-charged", costUsd: 0.5 },
    { type: "task-run-dropped", id: "a" },
    { type: "task-runs-single", reason: "403" },
    { type: "task-turn-timed", id: "a", turnMs: 60_000, commandMs: 45_000, contendedMs: 5_000 },
    { type: "task-recorded", id: "c", meta: task({ thread: "dispatch:c", startedAt: "t0" }) },
    { type: "task-status-set", id: "c", status: "merged", at: "t1" },
  ];

  it("covers every kind of change (the compiler holds this list to the union)", () => {
    const kinds: Record<RecordChange["type"], true> = {
      "task-recorded": true,
      "task-status-set": true,
      "task-verified": true,
      "escalation-opened": true,
      "escalation-noted": true,
      "comment-queued": true,
      "outbox-posted": true,
      "status-comment-posted": true,
      "people-read": true,
      "pull-request-found": true,
      "pull-request-opened": true,
      "pull-request-described": true,
      "transitions-settled": true,
      "turn-counted": true,
      "turn-uncounted": true,
      "call-charged": true,
      "calls-accounted": true,
      "journal-unloaded": true,
      "api-waiting": true,
      "api-answered": true,
      "disk-full": true,
      "disk-cleared": true,
      "workflows-held-back": true,
      "task-worked": true,
      "setup-ran": true,
      "setup-retry-requested": true,
      "requests-blocked": true,
      "mcp-problem": true,
      "job-paused": true,
      "job-resumed": true,
      "task-run-recorded": true,
      "task-run-charged": true,
      "task-run-dropped": true,
      "task-runs-single": true,
      "task-turn-timed": true,
    };
    const missing = Object.keys(kinds).filter((k) => !every.some((c) => c.type === k));
    expect(missing).toEqual([]);
  });

  it("never changes the records it is given", () => {
    let records = given();
    for (const change of every) {
      const frozen = structuredClone(records);
      const next = evolveRecords(records, change);
      expect(records).toEqual(frozen);
      records = next;
    }
  });

  it("every record it produces passes state.json's own schema", () => {
    let records = given();
    for (const change of every) {
      records = evolveRecords(records, change);
      const saved = withEngineState(records.job, records.engine);
      expect(engineState(JSON.parse(JSON.stringify(saved)) as typeof saved)).toEqual(
        records.engine,
      );
    }
  });
});
