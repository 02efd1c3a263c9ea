// fast-check generators shared by the protocol property tests.

import fc from "fast-check";
import { ACTIONS, type Action } from "../../../src/protocol/fsm.js";
import { newJobRecord, type JobRecord } from "../../../src/protocol/job-record.js";
import { transition, type TransitionMeta } from "../../../src/protocol/transition.js";
import { walkArb } from "./walks.js";

export const metaArb: fc.Arbitrary<TransitionMeta> = fc.record({
  at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  by: fc.constantFrom("orchestrator", "intent-lead@state:intent:1", "project-lead@job"),
  reason: fc.string(),
});

/**
 * A job record the protocol could have produced: a weighted walk over the state diagram
 * (walks.ts: every state, DONE and many backtracks are reached), with random counters and
 * engine data.
 */
export const jobArb: fc.Arbitrary<JobRecord> = fc
  .record({
    job: fc.integer({ min: 1, max: 1_000_000 }),
    title: fc.string(),
    walk: walkArb(30).chain((actions) =>
      fc.tuple(...actions.map((action) => fc.tuple(fc.constant(action), metaArb))),
    ),
    failures: fc.nat({ max: 5 }),
    turns: fc.nat({ max: 500 }),
    costUsd: fc.double({ min: 0, max: 100, noNaN: true }),
    engine: fc.dictionary(fc.string(), fc.jsonValue()),
  })
  .map(({ job, title, walk, failures, turns, costUsd, engine }) => {
    let record = newJobRecord({ job, title, at: "2026-01-01T00:00:00.000Z" });
    for (const [action, meta] of walk) record = transition(record, action, meta);
    return { ...record, failures, turns, costUsd, engine };
  });

/** Any text a skill might leave at the outcome path: well-formed, malformed or garbage. */
export const outcomeTextArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        outcome: fc.constantFrom<Action>(...ACTIONS),
        reason: fc.string({ minLength: 1 }).filter((s) => s.trim() !== ""),
      })
      .map((r) => JSON.stringify(r)),
  },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          outcome: fc.oneof(fc.constantFrom<string>(...ACTIONS, "PENDING", "approve"), fc.string()),
          reason: fc.oneof(fc.string(), fc.integer()),
          extra: fc.jsonValue(),
        },
        { requiredKeys: [] },
      )
      .map((r) => JSON.stringify(r)),
  },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string() },
);
