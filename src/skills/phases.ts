// The three phase skills' configuration (docs/protocol.md#phase-artifacts): which lead runs the
// state, which artifact it produces, which action approves it, and its check run.

import { LIVE_STATES, type Action, type LiveState } from "../protocol/fsm.js";
import type { CheckName } from "../ports/forge.js";

export interface Phase {
  state: LiveState;
  lead: "intent-lead" | "project-lead";
  artifact: "INTENT.md" | "PLAN.md" | "WORK_SUMMARY.md";
  skill: "intent.md" | "plan.md" | "execute.md";
  approval: Extract<Action, "APPROVED_INTENT" | "APPROVED_PLAN" | "APPROVED_WORK">;
  check: CheckName;
}

export const PHASES = {
  INTENT: {
    state: "INTENT",
    lead: "intent-lead",
    artifact: "INTENT.md",
    skill: "intent.md",
    approval: "APPROVED_INTENT",
    check: "cfa/intent",
  },
  PLAN: {
    state: "PLAN",
    lead: "project-lead",
    artifact: "PLAN.md",
    skill: "plan.md",
    approval: "APPROVED_PLAN",
    check: "cfa/plan",
  },
  EXECUTE: {
    state: "EXECUTE",
    lead: "project-lead",
    artifact: "WORK_SUMMARY.md",
    skill: "execute.md",
    approval: "APPROVED_WORK",
    check: "cfa/execute",
  },
} as const satisfies Record<LiveState, Phase>;

export const phaseOf = (state: LiveState): Phase => PHASES[state];

/** Artifacts that earlier phases produced and later ones (and tasks) read. */
export function inputArtifacts(state: LiveState): Phase["artifact"][] {
  return LIVE_STATES.slice(0, LIVE_STATES.indexOf(state)).map((s) => PHASES[s].artifact);
}
