// Weighted generators over the state diagram. A walk first moves among the live states —
// approvals forward, REALIGN and REPLAN back — for a length drawn uniformly, then either
// stays live or ends by one of the three terminals, each as likely. Random jobs so
// land in each of the six states about equally often and pile up backtracks past the
// default cap (5). The old walk (any of the seven actions, non-edges skipped, at most 12)
// ended in a terminal 68% of the time, in EXECUTE 1.1%, in DONE 0.9%, and never got past
// 3 backtracks. The generators draw from the oracle (diagram-1.ts), never from
// src/protocol, so a wrong table cannot steer them.

import fc from "fast-check";
import type { Action, State } from "../../../src/protocol/fsm.js";
import {
  ORACLE_ACTIONS,
  oracleActions,
  oracleIsLive,
  oracleStart,
  oracleStep,
  type OracleJob,
} from "./diagram-1.js";

/**
 * Relative weights of the edges that keep a job live. In EXECUTE every step backtracks
 * (REPLAN or REALIGN), so a walk of n steps visits EXECUTE and comes back many times.
 */
export const CYCLE_WEIGHTS: Partial<Record<Action, number>> = {
  APPROVED_INTENT: 1,
  APPROVED_PLAN: 3,
  REALIGN: 2,
  REPLAN: 3,
};

export type WalkEnd = "stay" | "done" | "withdraw" | "fail";

/** The live-cycle edge `pick` selects out of `state`, by weight; null from a terminal. */
export function cycleAction(state: State, pick: number): Action | null {
  const actions = oracleActions(state).filter((a) => (CYCLE_WEIGHTS[a] ?? 0) > 0);
  if (actions.length === 0) return null;
  const total = actions.reduce((sum, a) => sum + (CYCLE_WEIGHTS[a] ?? 0), 0);
  let left = pick % total;
  for (const action of actions) {
    left -= CYCLE_WEIGHTS[action] ?? 0;
    if (left < 0) return action;
  }
  return actions.at(-1)!;
}

/** The approvals from `state` to DONE, following the state diagram's forward edges. */
function approvalsToDone(state: State): Action[] {
  const forward: Partial<Record<State, Action>> = {
    INTENT: "APPROVED_INTENT",
    PLAN: "APPROVED_PLAN",
    EXECUTE: "APPROVED_WORK",
  };
  const out: Action[] = [];
  let job = oracleStart();
  job = { ...job, state };
  for (let a = forward[job.state]; a !== undefined; a = forward[job.state]) {
    out.push(a);
    job = oracleStep(job, a)!;
  }
  return out;
}

/** Turns picks and an ending into a walk of the state diagram's edges from INTENT. */
export function walkOf(picks: readonly number[], end: WalkEnd = "stay"): Action[] {
  let job = oracleStart();
  const walk: Action[] = [];
  for (const pick of picks) {
    const action = cycleAction(job.state, pick);
    if (action === null) break;
    job = oracleStep(job, action)!;
    walk.push(action);
  }
  if (!oracleIsLive(job.state)) return walk;
  switch (end) {
    case "stay":
      return walk;
    case "done":
      return [...walk, ...approvalsToDone(job.state)];
    case "withdraw":
      return [...walk, "WITHDRAW"];
    case "fail":
      return [...walk, "FAILURE"];
  }
}

export const walkEndArb: fc.Arbitrary<WalkEnd> = fc.oneof(
  { weight: 3, arbitrary: fc.constant("stay" as const) },
  { weight: 1, arbitrary: fc.constant("done" as const) },
  { weight: 1, arbitrary: fc.constant("withdraw" as const) },
  { weight: 1, arbitrary: fc.constant("fail" as const) },
);

/** Picks of a length drawn uniformly in 0..maxLength (fast-check's own favours short arrays). */
export const picksArb = (maxLength: number): fc.Arbitrary<number[]> =>
  fc
    .nat({ max: maxLength })
    .chain((n) => fc.array(fc.nat({ max: 1_000_000 }), { minLength: n, maxLength: n }));

/** A walk of edges only, weighted (see the header): every state, DONE and the caps reached. */
export const walkArb = (maxLength = 30): fc.Arbitrary<Action[]> =>
  fc.tuple(picksArb(maxLength), walkEndArb).map(([picks, end]) => walkOf(picks, end));

/**
 * A walk that also tries actions that are not edges from where the job is (about one in
 * five steps): the code must refuse those and leave the job as it was.
 */
export const attemptsArb = (maxLength = 30): fc.Arbitrary<Action[]> =>
  fc
    .tuple(walkArb(maxLength), fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 8 }))
    .map(([walk, strays]) => {
      const out = [...walk];
      for (const [at, which] of strays) {
        out.splice(at % (out.length + 1), 0, ORACLE_ACTIONS[which % ORACLE_ACTIONS.length]!);
      }
      return out;
    });

/**
 * The history of a job that took `actions` from INTENT, each edge's target read off the state
 * diagram: a test writes what was done, not where each step led; an action with no edge
 * throws.
 */
export function historyOf(...actions: Action[]): OracleJob["path"] {
  let job = oracleStart();
  for (const action of actions) {
    const next = oracleStep(job, action);
    if (next === null)
      throw new Error(`historyOf: the state diagram has no ${action} out of ${job.state}`);
    job = next;
  }
  return job.path;
}
