// The lead's fold of a task branch (written by the task's own workflow run) across wakes: each
// turn folded once, each cost charged once by its growth, each refusal — a record's or a
// file's — said once, whatever the lead reads again at its next wake.

import { describe, expect, it } from "vitest";
import { foldTaskBranch } from "../../../../src/engine/fanout/fold-task-branch.js";
import type { TaskTurnRecord } from "../../../../src/records/task-turn-record.js";
import { taskLedger } from "../../../support/engine/task-ledger.js";

const LEAD = "project-lead@job:7";
const ctx = { job: 7, task: "api", visible: new Set([LEAD]) };
const ledger = taskLedger({ epoch: 2 });
const turn = (seq: number, over: Partial<TaskTurnRecord> = {}): TaskTurnRecord => ({
  v: 1,
  job: 7,
  task: "api",
  epoch: 2,
  seq,
  run: "901",
  calls: 1,
  costUsd: 0.1,
  ended: true,
  sends: [{ to: LEAD, kind: "reply", text: `turn ${seq}` }],
  done: false,
  head: "c".repeat(40),
  ...over,
});

describe("the lead's fold of a task branch", () => {
  it("folds each ended turn once and charges each call once, across wakes that read the branch again", () => {
    const first = foldTaskBranch(
      ledger,
      {
        records: [turn(1), turn(2, { ended: false, head: null, sends: [], calls: 1 })],
        refused: [],
      },
      ctx,
    );
    expect(first.folded.map((t) => t.seq)).toEqual([1]);
    expect(first.chargedUsd).toBeCloseTo(0.2);
    expect(first.ledger).toMatchObject({ folded: 1, runId: "901", deaths: 0 });

    // Turn 2 ended since, after a second call; turn 1 is read again.
    const second = foldTaskBranch(
      first.ledger,
      { records: [turn(1), turn(2, { calls: 2, costUsd: 0.2, done: true })], refused: [] },
      ctx,
    );
    expect(second.folded.map((t) => t.seq)).toEqual([2]);
    expect(second.chargedUsd).toBeCloseTo(0.1);
    expect(second.done).toBe(true);
    expect(second.say).toEqual([]);
  });

  it("says a refused record and a file that is no record once, and never again", () => {
    const files = {
      records: [
        turn(1, { sends: [{ to: "worker@dispatch:db", kind: "reply" as const, text: "x" }] }),
      ],
      refused: [{ path: ".cfa/turns/notes.txt", why: "not a turn record's name" }],
    };
    const first = foldTaskBranch(ledger, files, ctx);
    expect(first.folded).toEqual([]);
    expect(first.say).toEqual([
      { what: "e2/1", why: "routing" },
      { what: ".cfa/turns/notes.txt", why: "not a turn record's name" },
    ]);
    // Charged all the same: the call was paid.
    expect(first.chargedUsd).toBeCloseTo(0.1);
    const again = foldTaskBranch(first.ledger, files, ctx);
    expect(again.say).toEqual([]);
    expect(again.chargedUsd).toBe(0);
    expect(again.ledger.refused).toEqual(first.ledger.refused);
  });
});
