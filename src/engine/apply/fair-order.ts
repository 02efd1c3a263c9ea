// Which runnable instances start first when slots are scarce (no starvation
// by name order). The rule: first come, first served — an instance queues from the
// first scheduling decision that saw its mailbox non-empty ([wake] is enabled from
// then on), and the queue is served in that order; instances that joined the queue at the
// same decision go least recently run first, then by name so replays are repeatable. Pure: the
// scheduler (turn-scheduler.ts) keeps the two maps and calls this at each decision.

export interface FairState {
  /** Decision number at which each queued instance was first seen runnable. */
  readonly queuedSince: ReadonlyMap<string, number>;
  /** Decision number at which each instance last started a turn. */
  readonly lastStarted: ReadonlyMap<string, number>;
}

/**
 * The runnable instances (keys) in the order they should start. Every key in `runnable` must
 * already be queued (`queuedSince` has it): `noteRunnable` does that first.
 */
export function fairOrder(runnable: readonly string[], state: FairState): string[] {
  const since = (k: string) => state.queuedSince.get(k) ?? Number.MAX_SAFE_INTEGER;
  const last = (k: string) => state.lastStarted.get(k) ?? -1;
  return [...runnable].sort(
    (x, y) => since(x) - since(y) || last(x) - last(y) || (x < y ? -1 : x > y ? 1 : 0),
  );
}

/** Queues every runnable instance not yet queued, as of decision `decision`. */
export function noteRunnable(
  queuedSince: Map<string, number>,
  runnable: readonly string[],
  decision: number,
): void {
  const now = new Set(runnable);
  // An instance that stopped being runnable without starting (a cascade consumed its
  // mailbox) leaves the queue: if it gets mail again, it queues again from then.
  for (const key of [...queuedSince.keys()]) if (!now.has(key)) queuedSince.delete(key);
  for (const key of runnable) if (!queuedSince.has(key)) queuedSince.set(key, decision);
}
