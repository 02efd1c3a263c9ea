// The lead takes a task over from its runs: after a second death, or when
// a dispatch of its next run is refused (the job falls back to `single`), the task's worker
// works in the lead's run. It starts where a new run of its own would (back-to-folded-turn.ts):
// from the tree its last folded turn ended on, not the branch's tip. A run that died inside a
// turn may have pushed that turn's half-work — the worker's commits, its sub-tasks' merges —
// which the lead never folded and whose transcript the worker's copy on the job branch (the
// fold's, through the same turn) never saw; the lead's message for that turn is still in the
// worker's mailbox, so the turn is taken again from the code it began on. The runs' records
// leave the tree too: the branch is the lead's again, and its merge must not bring
// `.cfa/turns/` into the job branch (as fold-at-wake.ts's adoption of a done head).

import type { TaskLedgerRecord } from "../../records/engine-state.js";
import { applyChange, progress, type Session } from "../job/session.js";
import { pushTask, taskWorkspace } from "../turn/task-workspace.js";
import { backToFoldedTurn } from "./back-to-folded-turn.js";
import type { RunGit } from "./leased-refs.js";
import { recordsOut, taskGit } from "./task-git.js";
import { readTaskTurnRecords } from "./task-turn-files.js";

/** What the takeover did: the commit whose tree it took back (null: the tip was that tree). */
export type TakeOver = { back: string | null } | { moved: true };

/**
 * Puts the task's branch back at its last folded turn's tree, without its runs' records, and
 * publishes it (leased on the tip its runs left). `moved` when the lease is refused: a run the
 * lead cancelled pushed meanwhile (a cancellation is not instant); the worktree is put back at
 * the tip it read, and the caller leaves the task in its runs for the next wake to take over
 * from the branch as it is then. Call it before the ledger is dropped, for the same reason.
 */
export async function takeOverTask(
  s: Session,
  id: string,
  ledger: Pick<TaskLedgerRecord, "epoch" | "folded" | "refused">,
): Promise<TakeOver> {
  const meta = s.engine.tasks[id];
  if (meta === undefined) return { back: null };
  const client = taskGit(s, await taskWorkspace(s, id));
  const git: RunGit = (args) => client.raw(args);
  // The worktree at the branch's tip: a new runner checks the fetched branch out there, and a
  // local job's runs push into this repository, moving the branch under the lead's checkout
  // (the lead never works a task while it is in a run: nothing of its own is here).
  await git(["reset", "--hard", "--quiet", "HEAD"]);
  const tip = (await git(["rev-parse", "--verify", "HEAD"])).trim();
  const { records } = await readTaskTurnRecords(git, tip);
  // Every run's records count: the lead's run comes after all of them.
  const back = await backToFoldedTurn(git, {
    job: s.n,
    task: id,
    epoch: ledger.epoch + 1,
    records,
    ledger,
    base: meta.base,
  });
  await recordsOut(client, `cfa #${s.n}: ${id} taken over by the lead, without its runs' records`);
  const head = (await git(["rev-parse", "--verify", "HEAD"])).trim();
  try {
    if (head !== tip) await pushTask(s, id, tip, head);
  } catch (error) {
    if ((error as Error | undefined)?.name !== "PushRejectedError") throw error;
    await git(["reset", "--hard", "--quiet", tip]);
    return { moved: true };
  }
  return { back };
}

/**
 * The live log's word on a task the lead took over whose branch went back to its last folded
 * turn's tree, or "" when its tip was that tree.
 */
export function fromTurn(took: TakeOver, folded: number, task?: string): string {
  if ("moved" in took) return "";
  const back = took.back;
  if (back === null) return "";
  const who = task === undefined ? "it" : `task ${task}`;
  return `; ${who} starts again from turn ${folded}'s tree (${back.slice(0, 12)})`;
}

/** The live log's word when a cancelled run pushed while the lead took its task over. */
export function movedWhileTaken(id: string): string {
  return `task ${id}'s branch moved while this run took it over (a cancelled run still pushing): taken over at the next wake`;
}

/**
 * Cancels the task's run (should any of it still go: `cancel: false` when it is known to be
 * over) and takes the task over, its ledger dropped and said in the live log with `why`; false
 * when its branch moved under the takeover (said; the task stays in its run for the next wake).
 */
export async function takeOverFromRun(
  s: Session,
  id: string,
  ledger: TaskLedgerRecord,
  why: string,
  options: { cancel: boolean } = { cancel: true },
): Promise<boolean> {
  if (options.cancel && ledger.runId !== null)
    await s.deps.taskRuns?.cancel(ledger.runId).catch(() => undefined);
  const took = await takeOverTask(s, id, ledger);
  if ("moved" in took) {
    progress(s, "EXECUTE", "TASK RUN", movedWhileTaken(id));
    return false;
  }
  applyChange(s, { type: "task-run-dropped", id });
  progress(
    s,
    "EXECUTE",
    "TASK RUN",
    `task ${id} runs in this run: ${why}${fromTurn(took, ledger.folded)}`,
  );
  return true;
}
