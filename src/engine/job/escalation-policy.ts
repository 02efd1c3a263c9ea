// The policy a question or gate is asked under (docs/protocol.md#escalation): the state's
// configured one, except a follow-up's INTENT gate where `followups.intent: auto` says the
// person's request is the intent: that gate goes under `never`, and its proxy step approves
// it as drafted (flow/escalations.ts), so the person is not asked and the audit says why.

import type { LiveState } from "../../protocol/fsm.js";
import type { Policy } from "../../protocol/bus/molecules.js";
import type { JobRecords } from "./session.js";

export function escalationPolicy(
  s: JobRecords,
  state: LiveState,
  kind: "question" | "gate",
): Policy {
  if (isAutoIntentGate(s, state, kind)) return "never";
  return s.config.escalation[state];
}

/** A follow-up's INTENT gate, where the repository approves follow-ups' intents itself. */
export function isAutoIntentGate(s: JobRecords, state: string, kind: string): boolean {
  return (
    kind === "gate" &&
    state === "INTENT" &&
    s.engine.followUp !== undefined &&
    s.config.followups.intent === "auto"
  );
}
