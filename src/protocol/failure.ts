// Failure accounting (seed 000 §3 "Termination guaranteed"; seed 001 CO-3): every
// state-level failure spends the state's retry budget; exhaustion and breached caps end the
// job in FAILURE, naming why. A capped job fails; it does not end cleanly.

import { InvalidTransitionError } from "./errors.js";
import { isTerminalState } from "./fsm.js";
import type { JobRecord } from "./job-record.js";
import { transition, type TransitionMeta } from "./transition.js";

export const DEFAULT_RETRY_BUDGET = 3;

export interface StateFailure {
  job: JobRecord;
  /** True when this failure spent the budget and the job is now in FAILURE. */
  exhausted: boolean;
}

/**
 * Counts one state-level failure. `budget` is the number of retries allowed: the
 * (budget + 1)-th consecutive failure in one state transitions to FAILURE.
 */
export function recordStateFailure(
  job: JobRecord,
  meta: TransitionMeta,
  budget: number = DEFAULT_RETRY_BUDGET,
): StateFailure {
  // A terminal job has no state left to fail in; refuse it whatever the count, rather than
  // silently bumping the counter until the budget is spent and only then throwing.
  if (isTerminalState(job.state)) throw new InvalidTransitionError(job.state, "FAILURE", []);
  const failures = job.failures + 1;
  if (failures > budget) {
    const reason = `retry budget spent in ${job.state} (${failures} failures, budget ${budget}): ${meta.reason}`;
    return { job: transition(job, "FAILURE", { ...meta, reason }), exhausted: true };
  }
  return { job: { ...job, failures }, exhausted: false };
}

export const CAP_NAMES = ["turns", "backtracks", "costUsd"] as const;
export type CapName = (typeof CAP_NAMES)[number];
export type Caps = Record<CapName, number>;

export const DEFAULT_CAPS: Caps = { turns: 200, backtracks: 5, costUsd: 25 };

export interface CapBreach {
  cap: CapName;
  limit: number;
  value: number;
}

/** The first cap the job has exceeded, or null. A value equal to its limit is within it. */
export function breachedCap(job: JobRecord, caps: Caps): CapBreach | null {
  const values: Record<CapName, number> = {
    turns: job.turns,
    backtracks: job.backtracks,
    costUsd: job.costUsd,
  };
  for (const cap of CAP_NAMES) {
    if (values[cap] > caps[cap]) return { cap, limit: caps[cap], value: values[cap] };
  }
  return null;
}

export function describeBreach(breach: CapBreach): string {
  // Cents, unless rounding to cents would print the spend equal to the cap ("$25.00 > $25.00").
  const cents = breach.value.toFixed(2) !== breach.limit.toFixed(2);
  const show = (n: number) =>
    breach.cap !== "costUsd" ? String(n) : cents ? `$${n.toFixed(2)}` : `$${String(n)}`;
  return `cap breached: ${breach.cap} ${show(breach.value)} > ${show(breach.limit)}`;
}

/** Moves the job to FAILURE if a cap is breached; otherwise returns it unchanged. */
export function enforceCaps(job: JobRecord, caps: Caps, meta: Omit<TransitionMeta, "reason">) {
  const breach = breachedCap(job, caps);
  if (breach === null || job.state === "FAILURE") return { job, breach: null };
  if (job.state === "DONE" || job.state === "WITHDRAWN") return { job, breach: null };
  return { job: transition(job, "FAILURE", { ...meta, reason: describeBreach(breach) }), breach };
}
