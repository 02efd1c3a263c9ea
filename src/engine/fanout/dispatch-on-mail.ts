// A task in runs of its own whose last run ended with its worker waiting — on the answer to the
// question it asked (issue 15 point 6) — gets its next run once that answer, or any message, is
// in the worker's mailbox on the lead's bus: epoch + 1, as a run that ended at its margin
// (watch-at-wake.ts). The lead's run calls this between turns, after the proxies answered,
// and persists what it dispatched before anything else runs: the ledger names the run it
// dispatched, and no second one is dispatched for the same mail.

import { addressKey } from "../../protocol/address.js";
import type { Session, Conversation } from "../job/session.js";
import type { TaskLedgerRecord } from "../../records/engine-state.js";
import { applyChange, progress } from "../job/session.js";
import { runsElsewhere } from "./dispatch-task-run.js";
import { fromTurn, movedWhileTaken, takeOverTask } from "./take-over-task.js";
import { fallBackToSingle } from "./fall-back-to-single.js";

/** Whether the task worker on `thread` is Idle with a message waiting (in the lead's bus). */
export function hasMail(s: Conversation, thread: string): boolean {
  const worker = { agent: "worker", thread };
  return s.soup.stateOf(worker) === "Idle" && s.soup.mailbox(worker).length > 0;
}

/**
 * Whether the task worker on `thread` waits on the answer to its question: the lead holds its
 * next run until the answer is mail. Any other worker without mail is not held — a run that
 * can do nothing counts as a death (watch-task-run.ts), so such a task cannot stall the job.
 */
export function waitsOnAnswer(s: Conversation, thread: string): boolean {
  const worker = { agent: "worker", thread };
  if (s.soup.stateOf(worker) === "AskQuestion") return true;
  const key = addressKey(worker);
  return s.soup.pendingEscalations().some((m) => addressKey(m.caller) === key);
}

/** Dispatches the waiting tasks that have mail now; true when any ledger changed. */
export async function dispatchOnMail(s: Session): Promise<boolean> {
  const runs = s.deps.taskRuns;
  if (runs === undefined) return false;
  let changed = false;
  for (const [id, ledger] of Object.entries(s.engine.fanout?.tasks ?? {})) {
    const meta = s.engine.tasks[id];
    if (ledger.runId !== null || meta === undefined || !runsElsewhere(s, meta.thread)) continue;
    if (!hasMail(s, meta.thread)) continue;
    changed = true;
    const next = { ...ledger, epoch: ledger.epoch + 1, foldedAtDispatch: ledger.folded };
    await dispatchNextEpoch(
      s,
      id,
      next,
      (run) => `task ${id} has mail: epoch ${next.epoch} in ${run}`,
    );
  }
  return changed;
}

/**
 * Dispatches a task's run at the ledger's (new) epoch and records it, said in the live log by
 * `said(run)`; a refused dispatch makes the job's tasks run in this run, said once.
 */
export async function dispatchNextEpoch(
  s: Session,
  id: string,
  next: TaskLedgerRecord,
  said: (run: string) => string,
): Promise<void> {
  // Once the job runs its tasks in the lead's run, a task left in its run (its takeover found
  // its branch moving) is taken over here, never dispatched again.
  const single = s.engine.fanout?.single;
  const answer =
    single !== undefined
      ? { kind: "unavailable" as const, reason: single }
      : await s.deps.taskRuns!.dispatch({ job: s.n, task: id, epoch: next.epoch });
  if (answer.kind === "unavailable") {
    // The task's worker works in this run now: from its last folded turn's tree. A branch
    // that moved meanwhile (its run, cancelled, still pushing): the ledger keeps the dead run
    // and no `single` yet, so the next wake's watch dispatches again or takes it over.
    const took = await takeOverTask(s, id, next);
    if ("moved" in took) {
      progress(s, "EXECUTE", "TASK RUN", movedWhileTaken(id));
      return;
    }
    applyChange(s, { type: "task-run-dropped", id });
    if (single !== undefined) {
      progress(
        s,
        "EXECUTE",
        "TASK RUN",
        `task ${id} runs in this run${fromTurn(took, next.folded)}`,
      );
      return;
    }
    progress(
      s,
      "EXECUTE",
      "RUNNERS",
      `tasks run in this run: ${answer.reason}${fromTurn(took, next.folded, id)}`,
    );
    await fallBackToSingle(s, answer.reason, id);
    return;
  }
  applyChange(s, { type: "task-run-recorded", id, ledger: { ...next, runId: answer.runId } });
  progress(s, "EXECUTE", "TASK RUN", said(`run ${answer.runId}`));
}
