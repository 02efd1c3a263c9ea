// The lead's look at its tasks' runs at a wake, after the fold: for each
// task still in a run of its own, the Actions API's word on that run (watch-task-run.ts), as
// read before the fold (task-run-states.ts: a run that ended has had its branch folded whole). A
// run still going is waited for; one that ended cleanly at its time margin without finishing
// the task is followed by a new run (epoch + 1, not a death); a dead run is cancelled (should
// any part of it still go) and the task dispatched once more at epoch + 1; after that, or
// when dispatching fails, the task runs in the lead's run, from its last folded turn's tree
// (take-over-task.ts). A newer epoch makes every older
// run stale: its pushes are refused by lease and its records by the fold.

import { applyChange, progress, type Session } from "../job/session.js";
import { runsElsewhere } from "./dispatch-task-run.js";
import { watchTaskRun } from "./watch-task-run.js";
import type { TaskRunStates } from "./task-run-states.js";
import { hasMail, waitsOnAnswer } from "./dispatch-on-mail.js";
import { saveForDispatch } from "./dispatch-saved.js";
import { takeOverFromRun } from "./take-over-task.js";

/**
 * True when any task's runner changed (the caller dispatches what was saved, and persists).
 * `states`: each run's state, read before the fold.
 */
export async function watchAtWake(s: Session, states: TaskRunStates): Promise<boolean> {
  const runs = s.deps.taskRuns;
  if (runs === undefined) return false;
  let changed = false;
  for (const [id, ledger] of Object.entries(s.engine.fanout?.tasks ?? {})) {
    const meta = s.engine.tasks[id];
    if (meta === undefined || !runsElsewhere(s, meta.thread) || ledger.runId === null) continue;
    const read = states.get(id);
    // Dispatched after the states were read (it is this wake's own): nothing to judge yet.
    if (read === undefined || read.runId !== ledger.runId) continue;
    const progressed =
      ledger.foldedAtDispatch === undefined || ledger.folded > ledger.foldedAtDispatch;
    const step = watchTaskRun({ deaths: ledger.deaths, done: false, progressed }, read.state);
    if (step === "wait" || step === "fold-only") continue;
    changed = true;
    if (step === "run-here") {
      // From its last folded turn's tree, as a run of its own would start (take-over-task.ts).
      await takeOverFromRun(s, id, ledger, "its runs died or did nothing twice", {
        cancel: false,
      });
      continue;
    }
    const death = step === "redispatch";
    // Nothing to cancel: only a run that is over gets here (completed, or gone), and a run
    // completes once every step of it has ended, so no part of it still pushes. A cancel would
    // cost a request GitHub answers 409 (404 for a run that is gone).
    // A run that ended with its worker waiting (on the answer to its question, folded): the
    // next run is dispatched once mail is waiting for it (dispatch-on-mail.ts), not now — a
    // run started now would find nothing to do and count as a death.
    if (waitsOnAnswer(s, meta.thread) && !hasMail(s, meta.thread)) {
      const held = { ...ledger, deaths: ledger.deaths + (death ? 1 : 0), runId: null };
      applyChange(s, { type: "task-run-recorded", id, ledger: held });
      progress(s, "EXECUTE", "TASK RUN", `task ${id}'s next run waits for its worker's mail`);
      continue;
    }
    const next = {
      ...ledger,
      epoch: ledger.epoch + 1,
      deaths: ledger.deaths + (death ? 1 : 0),
      foldedAtDispatch: ledger.folded,
      runId: null,
    };
    const why = death
      ? progressed
        ? "run died"
        : "run ended with no turn folded"
      : "run ended at its margin";
    await saveForDispatch(s, id, next, (run) => `task ${id} ${why}: epoch ${next.epoch} in ${run}`);
  }
  return changed;
}
