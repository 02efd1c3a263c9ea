// The lead's fold of a task run's records (a task in a workflow run of its own): each record
// checked once for epoch, sequence continuity, routing locality (docs/protocol.md#dispatch)
// and the allowance; costs charged once whatever the decisions' fate.

import { describe, expect, it } from "vitest";
import {
  foldTaskRecords,
  totalCharged,
  type TaskLedger,
} from "../../../../src/engine/fanout/fold-task-records.js";
import { watchTaskRun, fansOut } from "../../../../src/engine/fanout/watch-task-run.js";
import {
  parseTaskTurnRecord,
  type TaskTurnRecord,
} from "../../../../src/records/task-turn-record.js";

const LEAD = "project-lead@job:7";
const ctx = { job: 7, task: "parser", visible: new Set([LEAD]) };
const ledger = (over: Partial<TaskLedger> = {}): TaskLedger => ({
  epoch: 2,
  folded: 0,
  charged: {},
  allowanceUsd: 1,
  callUsd: 0.1,
  ...over,
});
const rec = (over: Partial<TaskTurnRecord>): TaskTurnRecord => ({
  v: 1,
  job: 7,
  task: "parser",
  epoch: 2,
  seq: 1,
  run: "4242",
  calls: 1,
  costUsd: 0.1,
  ended: true,
  sends: [{ to: LEAD, kind: "report", text: "done a thing" }],
  done: false,
  head: "a".repeat(40),
  ...over,
});

describe("folding a task run's records", () => {
  it("folds ended turns of the current epoch in sequence, each once: read again, nothing folds twice", () => {
    const records = [rec({ seq: 2 }), rec({ seq: 1 })];
    const first = foldTaskRecords(ledger(), records, ctx);
    expect(first.folded.map((r) => r.seq)).toEqual([1, 2]);
    expect(first.ledger.folded).toBe(2);
    const again = foldTaskRecords(first.ledger, records, ctx);
    expect(again.folded).toEqual([]);
    expect(again.chargedUsd).toBe(0);
  });

  it("waits at a gap: turn 3 without turn 2 folds nothing past turn 1", () => {
    const r = foldTaskRecords(ledger(), [rec({ seq: 1 }), rec({ seq: 3 })], ctx);
    expect(r.folded.map((x) => x.seq)).toEqual([1]);
    expect(r.waitingFor).toBe(2);
  });

  it("a stale epoch's ended turn is charged, never folded; a future epoch is refused and not charged", () => {
    const r = foldTaskRecords(
      ledger(),
      [rec({ epoch: 1, seq: 1, costUsd: 0.3 }), rec({ epoch: 3, seq: 1, costUsd: 0.5 })],
      ctx,
    );
    expect(r.folded).toEqual([]);
    expect(r.refused).toEqual([
      { key: "e1/1", why: "stale epoch" },
      { key: "e3/1", why: "future epoch" },
    ]);
    expect(r.chargedUsd).toBeCloseTo(0.3);
  });

  it("a record rewritten after every call is charged by its growth, once", () => {
    let l = ledger();
    let total = 0;
    for (const calls of [1, 2, 3]) {
      const r = foldTaskRecords(l, [rec({ ended: false, calls, costUsd: calls * 0.1 })], ctx);
      l = r.ledger;
      total += r.chargedUsd;
    }
    expect(total).toBeCloseTo(0.3);
    expect(totalCharged(l)).toBeCloseTo(0.3);
  });

  it("routing: a send to anyone but the parent refuses the turn's decisions (its cost still counts), and the sequence moves on", () => {
    const r = foldTaskRecords(
      ledger(),
      [
        rec({ seq: 1, sends: [{ to: "worker@task:other", kind: "reply", text: "hi sibling" }] }),
        rec({ seq: 2 }),
      ],
      ctx,
    );
    expect(r.refused).toEqual([{ key: "e2/1", why: "routing" }]);
    expect(r.folded.map((x) => x.seq)).toEqual([2]);
    expect(r.chargedUsd).toBeCloseTo(0.2);
  });

  it("control: the same turn sent to the parent folds", () => {
    const r = foldTaskRecords(ledger(), [rec({ seq: 1 })], ctx);
    expect(r.folded).toHaveLength(1);
  });

  it("caps: a run that spent past its allowance by more than one call has its decisions refused", () => {
    const r = foldTaskRecords(
      ledger({ allowanceUsd: 0.5 }),
      [rec({ seq: 1, calls: 7, costUsd: 0.7 })],
      ctx,
    );
    expect(r.refused).toEqual([{ key: "e2/1", why: "over allowance" }]);
    const within = foldTaskRecords(
      ledger({ allowanceUsd: 0.5 }),
      [rec({ seq: 1, calls: 6, costUsd: 0.6 })],
      ctx,
    );
    expect(within.folded).toHaveLength(1);
  });

  it("another job's or task's record is refused and not charged; a refusal is said once", () => {
    const r = foldTaskRecords(ledger(), [rec({ task: "other" })], ctx);
    expect(r.refused).toEqual([{ key: "e2/1", why: "other job or task" }]);
    expect(r.chargedUsd).toBe(0);
    const again = foldTaskRecords(r.ledger, [rec({ task: "other" })], ctx, new Set(["e2/1"]));
    expect(again.refused).toEqual([]);
  });

  it("timings: an ended turn's is measured once by its key, read again at later folds; a turn still running, another task's or a future epoch's is not; a refused turn's and a stale epoch's still are", () => {
    const timing = { turnMs: 60_000, commandMs: 45_000 };
    const records = [
      rec({ seq: 1, timing }),
      rec({ seq: 2, ended: false, timing }),
      rec({ seq: 3, task: "other", timing }),
      rec({ seq: 4, epoch: 3, timing }),
      rec({ epoch: 1, seq: 1, timing: { turnMs: 5_000, commandMs: 1_000 } }),
      rec({ seq: 5, timing, sends: [{ to: "worker@elsewhere", kind: "reply", text: "x" }] }),
    ];
    const first = foldTaskRecords(ledger(), records, ctx);
    expect(first.timed).toEqual([
      { key: "e2/1", ...timing },
      { key: "e1/1", turnMs: 5_000, commandMs: 1_000 },
      { key: "e2/5", ...timing },
    ]);
    expect(first.ledger.timed).toEqual(["e2/1", "e1/1", "e2/5"]);
    // Read again (the same branch at the next wake): nothing measured twice.
    const again = foldTaskRecords(first.ledger, [...records, rec({ seq: 6, timing })], ctx);
    expect(again.timed).toEqual([{ key: "e2/6", ...timing }]);
    expect(again.ledger.timed).toEqual(["e2/1", "e1/1", "e2/5", "e2/6"]);
    // Without timings (older records), nothing is measured and the ledger keeps no list.
    const old = foldTaskRecords(ledger(), [rec({ seq: 1 })], ctx);
    expect(old.timed).toEqual([]);
    expect(old.ledger.timed).toBeUndefined();
  });

  it("a record's timing is bounded where it enters: negative, past a day, or with a field of its own refuses the record", () => {
    const text = (timing: unknown) => JSON.stringify({ ...rec({ seq: 1 }), timing });
    expect(parseTaskTurnRecord(text({ turnMs: 1, commandMs: 1 })).ok).toBe(true);
    for (const bad of [
      { turnMs: -1, commandMs: 0 },
      { turnMs: 24 * 3_600_000 + 1, commandMs: 0 },
      { turnMs: 1, commandMs: 1, extra: 1 },
      { turnMs: "1", commandMs: 1 },
    ])
      expect(parseTaskTurnRecord(text(bad)).ok).toBe(false);
  });

  it("a record file that is not a record is refused where it enters", () => {
    expect(parseTaskTurnRecord("{").ok).toBe(false);
    expect(parseTaskTurnRecord(JSON.stringify({ ...rec({}), extra: 1 })).ok).toBe(false);
    expect(parseTaskTurnRecord(JSON.stringify(rec({}))).ok).toBe(true);
  });
});

describe("watching a task's run", () => {
  it("waits while it runs, continues after a clean stop, dispatches again after one death, then runs it in the lead", () => {
    const t = { deaths: 0, done: false };
    expect(watchTaskRun(t, { status: "active" })).toBe("wait");
    expect(watchTaskRun(t, { status: "completed", conclusion: "success" })).toBe("continue");
    expect(watchTaskRun(t, { status: "completed", conclusion: "failure" })).toBe("redispatch");
    expect(watchTaskRun(t, { status: "missing" })).toBe("redispatch");
    expect(
      watchTaskRun({ deaths: 1, done: false }, { status: "completed", conclusion: "cancelled" }),
    ).toBe("run-here");
    expect(
      watchTaskRun({ deaths: 1, done: true }, { status: "completed", conclusion: "failure" }),
    ).toBe("fold-only");
    const idle = { deaths: 0, done: false, progressed: false };
    expect(watchTaskRun(idle, { status: "completed", conclusion: "success" })).toBe("redispatch");
    expect(
      watchTaskRun({ ...idle, deaths: 1 }, { status: "completed", conclusion: "success" }),
    ).toBe("run-here");
    expect(watchTaskRun(idle, { status: "active" })).toBe("wait");
    expect(fansOut({ deaths: 1, done: false })).toBe(true);
    expect(fansOut({ deaths: 2, done: false })).toBe(false);
  });
});
