// The test oracle for the state machine: the state diagram (docs/protocol.md#jobs-and-states)
// and the skill contract's permitted outcomes (docs/protocol.md#skill-contract), transcribed
// here by hand from the protocol's text, independent of src/protocol. The property tests
// check the code against this, never against the code's own tables (ACTION_TO_STATE,
// VALID_ACTIONS, allowedOutcomes): a property checked against the code's own table passes
// whatever the table says, so only an oracle lets a wrong table fail them.
//
// Only type names are imported: a type cannot carry a wrong value.

import type { Action, LiveState, State } from "../../../src/protocol/fsm.js";

export interface OracleEdge {
  from: LiveState;
  action: Action;
  to: State;
}

/** The state diagram, one line of its stateDiagram per entry. */
export const DIAGRAM_1: readonly OracleEdge[] = [
  { from: "INTENT", action: "APPROVED_INTENT", to: "PLAN" },
  { from: "PLAN", action: "APPROVED_PLAN", to: "EXECUTE" },
  { from: "EXECUTE", action: "APPROVED_WORK", to: "DONE" },
  { from: "PLAN", action: "REALIGN", to: "INTENT" },
  { from: "EXECUTE", action: "REALIGN", to: "INTENT" },
  { from: "EXECUTE", action: "REPLAN", to: "PLAN" },
  { from: "INTENT", action: "WITHDRAW", to: "WITHDRAWN" },
  { from: "PLAN", action: "WITHDRAW", to: "WITHDRAWN" },
  { from: "EXECUTE", action: "WITHDRAW", to: "WITHDRAWN" },
  { from: "INTENT", action: "FAILURE", to: "FAILURE" },
  { from: "PLAN", action: "FAILURE", to: "FAILURE" },
  { from: "EXECUTE", action: "FAILURE", to: "FAILURE" },
];

export const ORACLE_STATES: readonly State[] = [
  "INTENT",
  "PLAN",
  "EXECUTE",
  "DONE",
  "WITHDRAWN",
  "FAILURE",
];
export const ORACLE_LIVE: readonly LiveState[] = ["INTENT", "PLAN", "EXECUTE"];
export const ORACLE_ACTIONS: readonly Action[] = [
  "APPROVED_INTENT",
  "APPROVED_PLAN",
  "APPROVED_WORK",
  "REALIGN",
  "REPLAN",
  "WITHDRAW",
  "FAILURE",
];

/**
 * The skill contract: "in INTENT, approve or withdraw; in PLAN, also realign; in EXECUTE, also
 * replan". FAILURE is the orchestrator's own action, never a skill's.
 */
export const SKILL_OUTCOMES: Record<LiveState, readonly Action[]> = {
  INTENT: ["APPROVED_INTENT", "WITHDRAW"],
  PLAN: ["APPROVED_PLAN", "WITHDRAW", "REALIGN"],
  EXECUTE: ["APPROVED_WORK", "WITHDRAW", "REALIGN", "REPLAN"],
};

export const oracleIsLive = (state: State): state is LiveState =>
  (ORACLE_LIVE as readonly State[]).includes(state);

/** Where `action` takes a job in `from`, or null when the state diagram has no such edge. */
export function oracleTarget(from: State, action: Action): State | null {
  return DIAGRAM_1.find((e) => e.from === from && e.action === action)?.to ?? null;
}

/** The actions the state diagram draws out of `from` (none out of a terminal). */
export function oracleActions(from: State): Action[] {
  return DIAGRAM_1.filter((e) => e.from === from).map((e) => e.action);
}

/** Live states are ordered INTENT < PLAN < EXECUTE; a backtrack's target precedes its source. */
export function oracleIsBacktrack(from: State, to: State): boolean {
  if (!oracleIsLive(from) || !oracleIsLive(to)) return false;
  return ORACLE_LIVE.indexOf(to) < ORACLE_LIVE.indexOf(from);
}

/** What the oracle expects of a job after a sequence of actions applied from INTENT. */
export interface OracleJob {
  state: State;
  backtracks: number;
  /** Entries into each state, creation counting as INTENT's first. */
  entries: Record<State, number>;
  /** The edges taken, in order. */
  path: { from: State; action: Action; to: State }[];
}

export function oracleStart(): OracleJob {
  return {
    state: "INTENT",
    backtracks: 0,
    entries: { INTENT: 1, PLAN: 0, EXECUTE: 0, DONE: 0, WITHDRAWN: 0, FAILURE: 0 },
    path: [],
  };
}

/** Applies `action`, or returns null when it is not an edge (the job is then unchanged). */
export function oracleStep(job: OracleJob, action: Action): OracleJob | null {
  const to = oracleTarget(job.state, action);
  if (to === null) return null;
  return {
    state: to,
    backtracks: job.backtracks + (oracleIsBacktrack(job.state, to) ? 1 : 0),
    entries: { ...job.entries, [to]: job.entries[to] + 1 },
    path: [...job.path, { from: job.state, action, to }],
  };
}
