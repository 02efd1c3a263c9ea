// When a gate nobody answers is due a reminder or has expired, from the
// records alone: the sweep asks it to decide whether to wake a job, and the wake to act.
// Pure: the clock is passed in.

import type { EngineState, EscalationMeta } from "./engine-state.js";

export interface GatePolicy {
  remindAfterHours?: number | undefined;
  expireAfterDays?: number | undefined;
}

export type GateDue =
  | { kind: "remind"; id: string; meta: EscalationMeta; waitedHours: number }
  | { kind: "expire"; id: string; meta: EscalationMeta; waitedDays: number };

const HOUR_MS = 3_600_000;

/**
 * The open gates (posted to people, unanswered, of the current state) that are due now: an
 * expiry first (it ends the job), else a reminder not sent yet. Gates from records without
 * `postedAt` have no deadline.
 */
export function gatesDue(
  engine: EngineState,
  state: string,
  policy: GatePolicy,
  now: Date,
): GateDue[] {
  const due: GateDue[] = [];
  for (const [id, meta] of Object.entries(engine.escalations)) {
    if (meta.kind !== "gate" || meta.state !== state) continue;
    if (meta.postedSeq === undefined || meta.answeredBy !== undefined) continue;
    if (meta.verdict !== undefined || meta.postedAt === undefined) continue;
    const waited = now.getTime() - Date.parse(meta.postedAt);
    if (!Number.isFinite(waited)) continue;
    const expire = policy.expireAfterDays;
    if (expire !== undefined && waited >= expire * 24 * HOUR_MS) {
      due.push({ kind: "expire", id, meta, waitedDays: Math.floor(waited / (24 * HOUR_MS)) });
      continue;
    }
    const remind = policy.remindAfterHours;
    if (remind !== undefined && meta.remindedAt === undefined && waited >= remind * HOUR_MS) {
      due.push({ kind: "remind", id, meta, waitedHours: Math.floor(waited / HOUR_MS) });
    }
  }
  return due;
}
