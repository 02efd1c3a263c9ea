// Seed 000 §7, §13: the per-state escalation policy decides how often the proxy must
// consult the person before answering on their behalf.

export const ESCALATION_POLICIES = ["never", "when_unsure", "always"] as const;
export type EscalationPolicy = (typeof ESCALATION_POLICIES)[number];

export const isEscalationPolicy = (value: unknown): value is EscalationPolicy =>
  typeof value === "string" && (ESCALATION_POLICIES as readonly string[]).includes(value);
