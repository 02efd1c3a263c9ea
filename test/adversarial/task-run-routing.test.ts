// A task's own run may send its parent replies and questions (a question is posed as the worker's
// own [ask-step], test/e2e/task-run-asks.test.ts); nothing it records reaches anyone else. A
// taken-over runner pushes records on the task's branch that try to, 3 plants, each at the turn the
// lead folds next, each with a message of its own (a mention and a hidden block the engine's
// comments use):
// - an ask to a sibling task's worker;
// - an ask to an instance of an earlier phase (PLAN's project lead, no longer live);
// - a record claiming a sub-task's send (task `hello-api`, a sub-task of hello) reached the
//   project lead directly: sub-tasks stay in their parent task's run, and only the task's own
//   worker speaks to the lead.
// The lead's fold refuses each — said once, by key and reason only, nothing of the plant's
// text — nothing of them reaches the bus, a comment or a question to the person, and the job
// goes on: the worker's message is still waiting, its next run (epoch 2) takes it, DONE.
// Positive controls: each plant is a well-formed record on the branch the lead reads, and a
// fold that let its recipient (or its task) through would fold it.

import { describe, expect, it } from "vitest";
import { foldTaskRecords } from "../../src/engine/fanout/fold-task-records.js";
import type { TaskTurnRecord } from "../../src/records/task-turn-record.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { state } from "../support/engine/inspect.js";
import { cases } from "../support/adversarial/count.js";
import {
  expectRefusedAndRedispatched,
  foldBefore,
  helloAndWorldInRuns,
  helloRedoneToDone,
  HOSTILE,
  LEAD,
  plantedInHellosRun,
  plantedRecord,
  recordsOn,
} from "../support/engine/task-run-jobs.js";

/** What the plant is, its record, the one recipient (or task) that would let it through, the refusal. */
const PLANTS: [string, TaskTurnRecord, { to?: string; task?: string }, string][] = [
  [
    "an ask to a sibling task's worker",
    plantedRecord({ sends: [{ to: "worker@dispatch:world", kind: "ask", text: HOSTILE }] }),
    { to: "worker@dispatch:world" },
    "task hello's run: e1/1: routing",
  ],
  [
    "an ask to an earlier phase's lead",
    plantedRecord({
      seq: 2,
      sends: [{ to: "project-lead@state:plan:1", kind: "ask", text: HOSTILE, toolUseId: "t1" }],
    }),
    { to: "project-lead@state:plan:1" },
    "task hello's run: e1/2: routing",
  ],
  [
    "a sub-task's send claimed to reach the project lead directly",
    plantedRecord({ task: "hello-api", seq: 3 }),
    { task: "hello-api" },
    "task hello's run: e1/3: other job or task",
  ],
];

describe(cases("a task run's records sending past its parent", PLANTS.length, "plants"), () => {
  const newJob = useLocalJobs();

  it("each refused once by key and reason; nothing of them reaches the bus, a comment or the person; the worker's next run takes its message — DONE", async () => {
    const job = await newJob(helloAndWorldInRuns());
    const { runs, deps } = await plantedInHellosRun(
      job,
      PLANTS.map((p) => p[1]),
    );

    // Positive control: each plant is a well-formed record where the lead reads it.
    const records = await recordsOn(job, "cfa/1-hello");
    expect(records.filter((r) => r.sends.some((s) => s.text === HOSTILE))).toHaveLength(
      PLANTS.length,
    );

    await expectRefusedAndRedispatched(
      job,
      deps,
      runs,
      PLANTS.map((p) => p[3]),
    );
    // No question was opened past the two gates.
    expect(Object.keys(state(job).engine.escalations as object)).toEqual(["q1", "q2"]);
    // Said once across wakes; nothing of the plants anywhere the lead writes.
    await helloRedoneToDone(job, deps, PLANTS.length);
  });

  it.each(PLANTS)(
    "positive control: %s folds when the fold lets its recipient or task through",
    (_name, record, through) => {
      const { ledger, ctx } = foldBefore(record);
      expect(foldTaskRecords(ledger, [record], ctx).folded).toEqual([]);
      const open = {
        ...ctx,
        task: through.task ?? ctx.task,
        visible: new Set([LEAD, ...(through.to ? [through.to] : [])]),
      };
      expect(foldTaskRecords(ledger, [record], open).folded).toEqual([record]);
    },
  );
});
