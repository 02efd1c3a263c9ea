// Builders for the state-machine tests: a job record in any state, reached through real
// transitions (so its history is one the protocol could have produced), then deep-frozen
// so a test fails loudly if transition() mutates its input.

import type { Action, State } from "../../../src/protocol/fsm.js";
import { newJobRecord, type JobRecord } from "../../../src/protocol/job-record.js";
import { transition, type TransitionMeta } from "../../../src/protocol/transition.js";

export const T0 = "2026-01-01T00:00:00.000Z";

export const meta = (reason = "because", at = "2026-01-02T03:04:05.000Z"): TransitionMeta => ({
  at,
  by: "orchestrator",
  reason,
});

/** The shortest path from INTENT to each state. */
export const PATH_TO: Record<State, readonly Action[]> = {
  INTENT: [],
  PLAN: ["APPROVED_INTENT"],
  EXECUTE: ["APPROVED_INTENT", "APPROVED_PLAN"],
  DONE: ["APPROVED_INTENT", "APPROVED_PLAN", "APPROVED_WORK"],
  WITHDRAWN: ["WITHDRAW"],
  FAILURE: ["FAILURE"],
};

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A frozen job record in `state`, with a pending failure count, turns and usage already
 * spent, so a test can see what a transition resets and what it carries over.
 */
export function givenJob(state: State, overrides: Partial<JobRecord> = {}): JobRecord {
  let job = newJobRecord({ job: 7, title: "Add a dark mode", at: T0 });
  PATH_TO[state].forEach((action, i) => {
    job = transition(job, action, meta(`step ${i + 1}`, `2026-01-01T00:0${i + 1}:00.000Z`));
  });
  return deepFreeze({
    ...job,
    failures: 2,
    turns: 11,
    costUsd: 1.25,
    usage: { inputTokens: 100, outputTokens: 50, cacheReadTokens: 10, cacheWriteTokens: 5 },
    engine: { cursor: { comments: 3 } },
    ...overrides,
  });
}
