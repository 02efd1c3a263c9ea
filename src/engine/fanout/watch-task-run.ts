// What the lead does about a task's run at its wake. Pure. A run the
// Actions API says is still queued or running is waited for (its last step wakes the lead). A
// run that completed without finishing its task either stopped cleanly (its time nearly up:
// it concluded with success, having folded a turn) — the task goes on in a new run, not counted
// against it — or died (a lost runner, a kill, a failure, a clean end that did nothing): it is
// dispatched again once, and after a second death
// the lead runs the task itself, in its own run, rather than feed runners to a task that
// kills them.

import type { TaskRunState } from "../../ports/task-runs.js";

export interface WatchedTask {
  /** Deaths of this task's runs so far. */
  deaths: number;
  /** The task is finished (its last folded turn said so). */
  done: boolean;
  /**
   * False when the run ended with no turn folded since it was dispatched. A clean end that
   * did nothing counts as a death: otherwise a task whose runs cannot progress (its worker
   * has no mail left, a done turn whose head the lead refused) would be dispatched again at
   * every wake, each run's last step waking the lead to dispatch the next. Absent: progressed.
   */
  progressed?: boolean;
}

export type WatchStep = "wait" | "fold-only" | "continue" | "redispatch" | "run-here";

/** Deaths after which the lead stops dispatching the task and runs it itself. */
export const MAX_TASK_RUN_DEATHS = 1;

export function watchTaskRun(t: WatchedTask, run: TaskRunState): WatchStep {
  if (t.done) return "fold-only";
  if (run.status === "active") return "wait";
  const clean = run.status === "completed" && run.conclusion === "success";
  if (clean && t.progressed !== false) return "continue";
  return t.deaths < MAX_TASK_RUN_DEATHS ? "redispatch" : "run-here";
}

/** Whether the task's next run is its own workflow run (false: the lead runs it). */
export function fansOut(t: WatchedTask): boolean {
  return t.deaths <= MAX_TASK_RUN_DEATHS;
}
