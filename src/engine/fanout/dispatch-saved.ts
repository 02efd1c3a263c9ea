// Save, then dispatch: a task run reads the job branch's state first and works only if its
// ledger names the run's epoch (task-run-standing.ts). Dispatched before that state is pushed,
// a run that starts quickly reads the old one ("the lead never dispatched epoch 2 … its latest
// is 1"), exits without writing and counts as a death. So a new epoch is only recorded here
// (its ledger with no run yet) and kept for `dispatchSaved`, which the wake calls between its
// steps: the state naming every such epoch is committed and pushed first, then each run is
// dispatched and its id recorded (pushed by the caller's next persist, or here).
//
// What is kept here dies with the wake: a wake that dies between the push and the dispatch
// leaves a ledger with no run, which the next wake dispatches at the next epoch when its
// worker has mail (dispatch-on-mail.ts) — never the same epoch twice, so no two runs can
// both hold one.

import { applyChange, persist, progress, type Session } from "../job/session.js";
import type { TaskLedgerRecord } from "../../records/engine-state.js";
import { isLiveState } from "../../protocol/fsm.js";
import { fromTurn, movedWhileTaken, takeOverTask } from "./take-over-task.js";
import { fallBackToSingle } from "./fall-back-to-single.js";

interface Saved {
  /** The live log's line once the run is dispatched, given its name ("run 901"). */
  said: (run: string) => string;
  /** Said with `--verbose` only (a task's first run, already in the dispatch's own line). */
  verbose: boolean;
}

const saved = new WeakMap<Session, Map<string, Saved>>();

function savedOf(s: Session): Map<string, Saved> {
  let m = saved.get(s);
  if (m === undefined) {
    m = new Map();
    saved.set(s, m);
  }
  return m;
}

/** Whether task `id`'s new epoch waits in this wake for its run to be dispatched. */
export function savedForDispatch(s: Session, id: string): boolean {
  return saved.get(s)?.has(id) === true;
}

/**
 * Records task `id`'s ledger at its new epoch with no run yet, for `dispatchSaved`. Once the
 * job runs its tasks in the lead's run (`single`), nothing is dispatched: the task is taken
 * over at once (runHere).
 */
export async function saveForDispatch(
  s: Session,
  id: string,
  next: TaskLedgerRecord,
  said: (run: string) => string,
  verbose = false,
): Promise<void> {
  const single = s.engine.fanout?.single;
  if (single !== undefined) {
    await runHere(s, id, next, single);
    return;
  }
  applyChange(s, { type: "task-run-recorded", id, ledger: { ...next, runId: null } });
  savedOf(s).set(id, { said, verbose });
}

/**
 * Pushes the state naming every saved epoch, then dispatches each run and records its id;
 * false when nothing was saved. A dispatch the repository refuses makes the job run its tasks
 * here from then on (fall-back-to-single.ts), the refused task and every saved one after it
 * taken over. Ends with the run ids pushed.
 */
export async function dispatchSaved(s: Session): Promise<boolean> {
  const pending = saved.get(s);
  if (pending === undefined || pending.size === 0) return false;
  const ids = [...pending.keys()];
  await persist(s, `cfa #${s.n}: task runs to dispatch: ${ids.join(", ")}`);
  for (const id of ids) {
    const { said, verbose } = pending.get(id)!;
    pending.delete(id);
    const ledger = s.engine.fanout?.tasks[id];
    const meta = s.engine.tasks[id];
    // The task ended meanwhile (withdrawn, dropped): its saved epoch has nothing to run.
    if (ledger === undefined || meta?.status !== "open" || !isLiveState(s.job.state)) continue;
    const single = s.engine.fanout?.single;
    const answer =
      single !== undefined
        ? { kind: "unavailable" as const, reason: single }
        : await s.deps.taskRuns!.dispatch({ job: s.n, task: id, epoch: ledger.epoch });
    if (answer.kind === "unavailable") {
      await runHere(s, id, ledger, answer.reason);
      continue;
    }
    applyChange(s, { type: "task-run-recorded", id, ledger: { ...ledger, runId: answer.runId } });
    progress(s, "EXECUTE", "TASK RUN", said(`run ${answer.runId}`), verbose);
  }
  await persist(s, `cfa #${s.n}: task runs dispatched`);
  return true;
}

/**
 * The task's worker works in this run from now on, from its last folded turn's tree
 * (take-over-task.ts); the first refusal makes the job's tasks run here, said once. A branch
 * that moved meanwhile (its run, cancelled, still pushing) keeps the ledger and no `single`
 * yet: the next wake's watch dispatches again or takes it over.
 */
async function runHere(
  s: Session,
  id: string,
  ledger: TaskLedgerRecord,
  reason: string,
): Promise<void> {
  const single = s.engine.fanout?.single;
  const took = await takeOverTask(s, id, ledger);
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
      `task ${id} runs in this run${fromTurn(took, ledger.folded)}`,
    );
    return;
  }
  progress(
    s,
    "EXECUTE",
    "RUNNERS",
    `tasks run in this run: ${reason}${fromTurn(took, ledger.folded, id)}`,
  );
  await fallBackToSingle(s, reason, id);
}
