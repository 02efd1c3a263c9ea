// What `execute.runners: auto` decides on (choose-runner.ts), read from what
// the engine measured, never from what a model said. Pure: each reads the job's records
// (`engine.measured`, kept by the updaters of record-changes.ts) or the run's clock.
// - commandShare: of the wall time of the task instances' applied turns, the share their
//   commands took (each command timed around the sandbox by the engine's monotonic clock);
// - expectedMinutes: the mean wall time of the job's tasks that ended (start to merge or
//   drop, the engine's clock), or the default until one has;
// - leadMinutesLeft: until the lead run's clean stop (limits.runMinutes less
//   limits.stopMarginMinutes, counted from the run's start), infinite without one (locally).

import type { EngineState } from "../../records/engine-state.js";

/** Minutes a task is expected to take until the job measured one. */
export const DEFAULT_TASK_MINUTES = 10;

/** The share (0–1) of the task turns' time spent in commands so far; 0 before any turn. */
export function commandShare(engine: Pick<EngineState, "measured">): number {
  const m = engine.measured;
  if (m === undefined || m.turnMs <= 0) return 0;
  return Math.min(1, Math.max(0, m.commandMs / m.turnMs));
}

/** The mean minutes of the job's ended tasks, or `fallback` until one ended. */
export function expectedTaskMinutes(
  engine: Pick<EngineState, "measured">,
  fallback = DEFAULT_TASK_MINUTES,
): number {
  const m = engine.measured;
  if (m === undefined || m.tasks === 0) return fallback;
  return m.taskMs / m.tasks / 60_000;
}

/**
 * Minutes until the run stops cleanly, from `nowMs` (the engine's clock); Infinity when the run
 * has no such stop (a local run), 0 once it is past.
 */
export function leadMinutesLeft(stopAtMs: number | null, nowMs: number): number {
  if (stopAtMs === null || !Number.isFinite(stopAtMs)) return Number.POSITIVE_INFINITY;
  return Math.max(0, (stopAtMs - nowMs) / 60_000);
}
