// The CfA state machine (docs/protocol.md#jobs-and-states): six states, seven actions, twelve
// labelled edges. The tables below are the single source of truth: a literal table, no
// library, so a change to the protocol is made in one place.

export const LIVE_STATES = ["INTENT", "PLAN", "EXECUTE"] as const;
export const TERMINAL_STATES = ["DONE", "WITHDRAWN", "FAILURE"] as const;
export const STATES = [...LIVE_STATES, ...TERMINAL_STATES] as const;

export type LiveState = (typeof LIVE_STATES)[number];
export type TerminalState = (typeof TERMINAL_STATES)[number];
export type State = (typeof STATES)[number];

export const ACTIONS = [
  "APPROVED_INTENT",
  "APPROVED_PLAN",
  "APPROVED_WORK",
  "REALIGN",
  "REPLAN",
  "WITHDRAW",
  "FAILURE",
] as const;
export type Action = (typeof ACTIONS)[number];

/** The action alone determines the target state; the mapping is total. */
export const ACTION_TO_STATE = {
  APPROVED_INTENT: "PLAN",
  APPROVED_PLAN: "EXECUTE",
  APPROVED_WORK: "DONE",
  REALIGN: "INTENT",
  REPLAN: "PLAN",
  WITHDRAW: "WITHDRAWN",
  FAILURE: "FAILURE",
} as const satisfies Record<Action, State>;

/** The edges of the state diagram (docs/protocol.md#jobs-and-states) by source: 3 + 4 + 5 = 12. */
export const VALID_ACTIONS = {
  INTENT: ["APPROVED_INTENT", "WITHDRAW", "FAILURE"],
  PLAN: ["APPROVED_PLAN", "REALIGN", "WITHDRAW", "FAILURE"],
  EXECUTE: ["APPROVED_WORK", "REALIGN", "REPLAN", "WITHDRAW", "FAILURE"],
} as const satisfies Record<LiveState, readonly Action[]>;

/** FAILURE is the orchestrator's action; every other action is a skill outcome. */
export const ORCHESTRATOR_ACTIONS = ["FAILURE"] as const satisfies readonly Action[];

export const isState = (value: unknown): value is State =>
  typeof value === "string" && (STATES as readonly string[]).includes(value);
export const isLiveState = (value: unknown): value is LiveState =>
  typeof value === "string" && (LIVE_STATES as readonly string[]).includes(value);
export const isTerminalState = (value: unknown): value is TerminalState =>
  typeof value === "string" && (TERMINAL_STATES as readonly string[]).includes(value);
export const isAction = (value: unknown): value is Action =>
  typeof value === "string" && (ACTIONS as readonly string[]).includes(value);

/** Every action a job in `state` may take; none from a terminal. */
export function validActions(state: State): readonly Action[] {
  return isLiveState(state) ? VALID_ACTIONS[state] : [];
}

/**
 * A skill's permitted outcomes are exactly the actions originating from its state, less
 * FAILURE, which only the orchestrator emits (docs/protocol.md#skill-contract).
 */
export function allowedOutcomes(state: LiveState): readonly Action[] {
  return VALID_ACTIONS[state].filter(
    (action) => !(ORCHESTRATOR_ACTIONS as readonly Action[]).includes(action),
  );
}

export function isEdge(from: State, action: Action): boolean {
  return validActions(from).includes(action);
}

/** Live states are ordered INTENT < PLAN < EXECUTE; a backtrack goes back. */
export function isBacktrack(from: State, to: State): boolean {
  if (!isLiveState(from) || !isLiveState(to)) return false;
  return LIVE_STATES.indexOf(to) < LIVE_STATES.indexOf(from);
}
