// Where a task run starts: the tree its task's last folded turn ended on.

import {
  TASK_TURNS_DIR,
  taskTurnKey,
  type TaskTurnRecord,
} from "../../records/task-turn-record.js";
import type { TaskLedgerRecord } from "../../records/engine-state.js";
import { commitStaged, type RunGit } from "./leased-refs.js";

/**
 * The task's tree (code and transcript) as its last folded turn ended it. A run that stopped
 * inside a turn may have pushed part of it — its worker's commits and its sub-tasks' merges
 * ride on the records of its later calls — but the lead never folded it, and its transcript
 * was never committed: this run takes that turn again from the lead's message, so it starts
 * from the code that turn began on, and the worker's tree and conversation agree. The head is
 * a record's (hostile input): used only if it is on the branch; the records stay. Returns the
 * commit whose tree it took back, or null when nothing changed.
 */
export async function backToFoldedTurn(
  git: RunGit,
  o: {
    job: number;
    task: string;
    /** The run's epoch: only records of earlier runs count. */
    epoch: number;
    records: readonly TaskTurnRecord[];
    ledger: Pick<TaskLedgerRecord, "folded" | "refused">;
    /** The commit the task's branch was made from (its tree before any turn). */
    base: string;
  },
): Promise<string | null> {
  const { ledger, records } = o;
  const folded = ledger.folded;
  // Never a record the lead refused. One it never saw (planted over the folded one's file)
  // can name only a commit already on the branch, which whoever planted it could have pushed
  // as the tip anyway; the lead verifies the done head whatever the run started from.
  const last = records
    .filter((r) => r.ended && r.seq === folded && r.epoch < o.epoch && r.head !== null)
    .filter((r) => !ledger.refused.includes(taskTurnKey(r)))
    .sort((a, b) => b.epoch - a.epoch)[0];
  const to = folded === 0 ? o.base : (last?.head ?? null);
  if (to === null || to === "") return null;
  // On the branch: the commit is its own merge base with the tip. (The runner's git reports an
  // exit code only as an error, and `merge-base --is-ancestor` says "no" with exit 1 and no
  // output, which it does not treat as one.) Not a commit here: an error, so not on it.
  const onBranch = await git(["merge-base", to, "HEAD"]).then(
    (out) => out.trim() === to,
    () => false,
  );
  if (!onBranch) return null;
  // git-restore(1): "If a path is tracked but does not exist in the restore source, it will
  // be removed to match the source." Every record stays as the branch has it.
  await git([
    "restore",
    `--source=${to}`,
    "--staged",
    "--worktree",
    "--",
    ".",
    `:(exclude,glob)${TASK_TURNS_DIR}/*.json`,
  ]);
  if ((await git(["status", "--porcelain", "--untracked-files=no"])).trim() === "") return null;
  await commitStaged(
    git,
    `cfa #${o.job}: ${o.task} back to turn ${folded}'s tree (a run stopped inside turn ${folded + 1})`,
  );
  return to;
}
