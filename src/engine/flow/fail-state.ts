// A state-level failure (docs/protocol.md#skill-contract): a turn that errs, an outcome record that
// is refused, a proxy that cannot run. It spends the retry budget and tells the instance, or, once
// the budget is spent, fails the job.

import type { Address } from "../../protocol/address.js";
import { isLiveState } from "../../protocol/fsm.js";
import { recordStateFailure } from "../../protocol/failure.js";
import { now, persist, type Session } from "../job/session.js";
import { recover } from "./orchestrator.js";
import { afterTransition, applyTransition } from "./transitions.js";

/**
 * A state-level failure: spend the retry budget and tell the instance, or fail the job.
 * `to` null: nobody to tell (a proxy run failed; the escalation stays pending and is
 * retried).
 */
export async function failState(
  s: Session,
  reason: string,
  to: Address | null,
  message: string,
): Promise<void> {
  if (!isLiveState(s.job.state)) return;
  const before = s.job;
  const counted = recordStateFailure(
    s.job,
    { at: now(s), by: "orchestrator", reason },
    s.config.retryBudget,
  );
  if (counted.exhausted) {
    // The record that breached the budget is not kept: the job fails from where it was.
    s.job = before;
    await failJob(s, counted.job.history.at(-1)!.reason);
    return;
  }
  s.job = counted.job;
  if (to === null) return;
  await recover(
    s,
    to,
    `${message}\n(State-level failure ${s.job.failures} of ${s.config.retryBudget} allowed.)`,
  );
}

/**
 * Ends the job in FAILURE for `reason` (a budget, bound or cap breached): the transition,
 * its commit (named for `bound` when given) and what follows a transition.
 */
export async function failJob(s: Session, reason: string, bound?: string): Promise<void> {
  const applied = await applyTransition(s, "FAILURE", "orchestrator", reason);
  await persist(s, `cfa #${s.n}: ${applied.from} → FAILURE${bound ? ` (${bound})` : ""}`);
  await afterTransition(s, applied);
}
