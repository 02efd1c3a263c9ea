// A task in runs of its own whose last run ended with its worker waiting — on the answer to the
// question it asked — gets its next run once that answer, or any message, is
// in the worker's mailbox on the lead's bus: epoch + 1, as a run that ended at its margin
// (watch-at-wake.ts). The lead's run calls this between turns, after the proxies answered,
// then dispatchSaved (dispatch-saved.ts) pushes the new epoch and dispatches its run: the
// ledger names the run it dispatched, and no second one is dispatched for the same mail.

import { addressKey } from "../../protocol/address.js";
import type { Session, Conversation } from "../job/session.js";
import { runsElsewhere } from "./dispatch-task-run.js";
import { saveForDispatch, savedForDispatch } from "./dispatch-saved.js";

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

/** Saves a run for each waiting task that has mail now; true when any ledger changed. */
export async function dispatchOnMail(s: Session): Promise<boolean> {
  const runs = s.deps.taskRuns;
  if (runs === undefined) return false;
  let changed = false;
  for (const [id, ledger] of Object.entries(s.engine.fanout?.tasks ?? {})) {
    const meta = s.engine.tasks[id];
    if (ledger.runId !== null || meta === undefined || !runsElsewhere(s, meta.thread)) continue;
    // Saved in this wake, its run not yet dispatched: that run takes this mail.
    if (savedForDispatch(s, id)) continue;
    if (!hasMail(s, meta.thread)) continue;
    changed = true;
    const next = { ...ledger, epoch: ledger.epoch + 1, foldedAtDispatch: ledger.folded };
    await saveForDispatch(
      s,
      id,
      next,
      (run) => `task ${id} has mail: epoch ${next.epoch} in ${run}`,
    );
  }
  return changed;
}
