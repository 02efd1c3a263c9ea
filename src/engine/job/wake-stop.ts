// Stopping a wake early but cleanly (so a job outlives a run's time limit): the run's time is
// nearly up, or the run was cancelled. Unlike the hard `signal` (a second Ctrl-C, SIGTERM), a stop
// ends the wake at a turn boundary with its records written and pushed: running turns stop at their
// next model-call boundary — or at once when `now` (a cancellation gives seconds, not a model
// call's minute: https://docs.github.com/en/actions/reference/workflow-cancellation-reference,
// SIGINT, then SIGTERM 7500 ms later, then the process tree killed 2500 ms after that). What they
// paid stays in the response journal and is charged once; nothing of them is applied, so the next
// wake redoes them from their mailboxes, answering their calls from the journal.

export interface WakeStop {
  reason: string;
  /** Stop running turns at once (their calls in flight are cut), not at their next call. */
  now: boolean;
}

/** The stop a signal carries: its reason if it is a WakeStop, else a stop at the boundary. */
export function stopOf(signal: AbortSignal | undefined): WakeStop | null {
  if (signal === undefined || !signal.aborted) return null;
  const reason: unknown = signal.reason;
  if (typeof reason === "object" && reason !== null && "reason" in reason && "now" in reason) {
    const r = reason as { reason: unknown; now: unknown };
    return { reason: String(r.reason), now: r.now === true };
  }
  return { reason: reason instanceof Error ? reason.message : String(reason), now: false };
}
