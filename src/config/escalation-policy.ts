// The per-state escalation policy (docs/protocol.md#escalation) decides how often the proxy must
// consult the person before answering on their behalf. The values are the protocol's own.

import { ESCALATION_POLICIES, type Policy } from "../protocol/bus/molecules.js";

export { ESCALATION_POLICIES };
export type EscalationPolicy = Policy;

export const isEscalationPolicy = (value: unknown): value is EscalationPolicy =>
  typeof value === "string" && (ESCALATION_POLICIES as readonly string[]).includes(value);
