// Failure accounting (termination, docs/protocol.md#invariants; a cap fails the run,
// docs/protocol.md#recorded-decisions): a run of consecutive state-level failures spends the
// state's retry budget; PENDING nudges of an idle lead have a bound of their own; exhaustion and
// breached caps end the job in FAILURE, naming why. A capped job fails; it does not end cleanly.
//
// What ends the runs, so a job terminates whatever its agents do: a failed turn never
// resets anything, so budget + 1 failures in a row fail the state; every successful turn
// and every nudge is a counted turn, so `caps.turns` bounds how often the two counts can
// restart; a transition is bounded by `caps.backtracks`.

import { InvalidTransitionError } from "./errors.js";
import { isTerminalState } from "./fsm.js";
import type { JobRecord } from "./job-record.js";
import { transition, type TransitionMeta } from "./transition.js";

export const DEFAULT_RETRY_BUDGET = 3;
/** Consecutive nudges of an idle lead before FAILURE (config `nudges`). */
export const DEFAULT_NUDGE_LIMIT = 5;

export interface StateFailure {
  job: JobRecord;
  /** True when this failure spent the budget and the job is now in FAILURE. */
  exhausted: boolean;
}

/**
 * A successful turn resets the consecutive-failure count ("consecutive", as the record says,
 * not every failure since the state was entered). A successful turn is a Run of
 * any instance of the current state — its lead, a task's worker, a proxy answering in it —
 * that ended by the agent's own choice ([send-step], [nosend-step] or [ask-step]) with no
 * error from the model, a tool host or the turn's timeout and, for a lead, no outcome-record
 * violation. It shows the state can still move; a failure after it starts a new run.
 */
export function recordSuccessfulTurn(job: JobRecord): JobRecord {
  if (isTerminalState(job.state) || job.failures === 0) return job;
  return { ...job, failures: 0 };
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
  return countTowards(job, meta, "failures", budget, (failures) => {
    return `retry budget spent in ${job.state} (${failures} failures, budget ${budget})`;
  });
}

/**
 * PENDING (docs/protocol.md#jobs-and-states): a lead's turn that ended without an outcome record
 * leaves the state as it was. When nothing else can run and nobody is asked, the orchestrator
 * nudges the lead — a PENDING turn, not a failure, so it spends no retry budget. Its own bound
 * keeps termination guaranteed: the (limit + 1)-th nudge in a row is FAILURE naming `nudges`.
 */
export function recordNudge(
  job: JobRecord,
  meta: TransitionMeta,
  limit: number = DEFAULT_NUDGE_LIMIT,
): StateFailure {
  return countTowards(job, meta, "nudges", limit, (nudges) => {
    return `nudge limit reached in ${job.state} (${nudges} nudges in a row, nudges ${limit})`;
  });
}

/** One more on `counter`; past `bound`, FAILURE with the reason `breached` gives, then why. */
function countTowards(
  job: JobRecord,
  meta: TransitionMeta,
  counter: "failures" | "nudges",
  bound: number,
  breached: (count: number) => string,
): StateFailure {
  // A terminal job has no state left to fail in; refuse it whatever the count, rather than
  // silently bumping the counter until the bound is passed and only then throwing.
  if (isTerminalState(job.state)) throw new InvalidTransitionError(job.state, "FAILURE", []);
  const count = job[counter] + 1;
  if (count > bound) {
    const reason = `${breached(count)}: ${meta.reason}`;
    return { job: transition(job, "FAILURE", { ...meta, reason }), exhausted: true };
  }
  return { job: { ...job, [counter]: count }, exhausted: false };
}

/**
 * The lead moved the state on without finishing it — asked, dispatched, sent or closed —
 * so the next idle stop starts a new run of nudges.
 */
export function recordLeadProgress(job: JobRecord): JobRecord {
  if (isTerminalState(job.state) || job.nudges === 0) return job;
  return { ...job, nudges: 0 };
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
