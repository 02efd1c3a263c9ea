// The outcome record (docs/protocol.md#skill-contract): `{outcome, reason}`, written by a skill at
// its terminal. It arrives as untrusted text; anything malformed or outside the state's permitted
// outcomes is a contract violation, returned as a value (the engine turns it into a state-level
// failure).

import * as z from "zod";
import { ACTIONS, allowedOutcomes, type Action, type LiveState } from "./fsm.js";
import { parseJson } from "./parse-json.js";

/** How long an outcome's reason may be: the transition comment quotes it. */
export const OUTCOME_REASON_MAX = 4000;

export const OutcomeRecordSchema = z
  .object({
    outcome: z.enum(ACTIONS),
    reason: z.string().trim().min(1, "reason must not be empty").max(OUTCOME_REASON_MAX),
  })
  .strict();
export type OutcomeRecord = z.infer<typeof OutcomeRecordSchema>;

export type OutcomeParse =
  { ok: true; record: OutcomeRecord & { outcome: Action } } | { ok: false; violation: string };

export function parseOutcomeRecord(text: string, state: LiveState): OutcomeParse {
  const json = parseJson(text);
  if (!json.ok) return { ok: false, violation: "outcome record is not valid JSON" };
  const parsed = OutcomeRecordSchema.safeParse(json.value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "record"}: ${issue.message}`)
      .join("; ");
    return { ok: false, violation: `outcome record is malformed: ${issues}` };
  }
  const allowed = allowedOutcomes(state);
  if (!allowed.includes(parsed.data.outcome)) {
    return {
      ok: false,
      violation: `outcome ${parsed.data.outcome} is not permitted in ${state} (permitted: ${allowed.join(", ")})`,
    };
  }
  return { ok: true, record: parsed.data };
}
