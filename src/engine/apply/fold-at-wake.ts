// The lead's fold of its task runs, applied to the wake's session: what
// foldTaskRuns made of each task branch reaches the bus as the worker's own turns (appended
// by the lead's run, the only writer of the bus), its cost is charged to the job, its ledger
// kept in the engine state, and each refusal said once (the ledger remembers what was said).

import { gitClient } from "../../git/git-client.js";
import { pushTask, taskWorkspace } from "../turn/task-workspace.js";
import { handleEffects } from "../flow/transitions.js";
import { foldTaskTranscript } from "../fanout/fold-task-transcript.js";
import { append, applyChange, progress, type Session } from "../job/session.js";
import { foldTaskRuns } from "../fanout/fold-task-runs.js";
import { foldedAskIds, openFoldedAsks } from "../fanout/folded-asks.js";
import { recordsOut, taskGit } from "../fanout/task-git.js";

/** Folds every task in a run of its own; true when any turn reached the bus. */
export async function foldAtWake(s: Session): Promise<boolean> {
  const fanout = s.engine.fanout;
  if (fanout === undefined || Object.keys(fanout.tasks).length === 0) return false;
  const client = gitClient(s.deps.repoDir);
  const git = (args: string[]) => client.raw(args);
  const folds = await foldTaskRuns(git, s.n, s.engine, s.soup, foldedAskIds(s));
  let delivered = false;
  for (const fold of folds) {
    applyChange(s, { type: "task-run-recorded", id: fold.task, ledger: fold.ledger });
    openFoldedAsks(s, fold.asked);
    // What the task's run paid reaches the job's cost once (the ledger charges by growth):
    // the caps see it at the lead's next model call.
    if (fold.chargedUsd > 0) applyChange(s, { type: "task-run-charged", costUsd: fold.chargedUsd });
    // What its turns took there, for what `execute.runners: auto` weighs: as the lead's run
    // measures a turn it applies (its commands ran alone in that run: nothing contended).
    for (const t of fold.timed)
      applyChange(s, { type: "task-turn-timed", id: fold.task, ...t, contendedMs: 0 });
    for (const r of fold.say)
      progress(s, "EXECUTE", "REFUSED", `task ${fold.task}'s run: ${r.what}: ${r.why}`);
    if (fold.events.length > 0) {
      await append(s, fold.events);
      delivered = true;
    }
    // The worker's turns read in the job's records as if it had taken them in this run.
    if (fold.transcriptAt !== null)
      await foldTaskTranscript(s, fold.task, fold.transcriptAt, fold.transcriptOpens);
    // The task is done at the record's head: the lead's workspace takes it, for the
    // verifier and the merge that stay in the lead's run (the lead's `close`).
    // Done, the task's branch is the lead's again: what follows (a close, a message asking
    // for more) runs in the lead's run, and no new run is dispatched for it.
    if (fold.doneAt !== null && (await adoptDoneHead(s, fold.task, fold.doneAt)))
      applyChange(s, { type: "task-run-dropped", id: fold.task });
    await handleEffects(s, fold.effects);
  }
  return delivered;
}

/**
 * The task's workspace in the lead's run moves to the commit the done turn named — only when
 * that commit is on the branch the task's run pushed (a record is hostile input) — and its
 * run's records leave the tree in one commit, so nothing of `.cfa/turns/` reaches the job
 * branch with the merge. The verifier passes (or fails) exactly that commit.
 */
async function adoptDoneHead(s: Session, task: string, head: string): Promise<boolean> {
  const meta = s.engine.tasks[task];
  if (meta === undefined) return false;
  const repo = gitClient(s.deps.repoDir);
  const tip = (await repo.raw(["rev-parse", "--verify", `refs/heads/${meta.branch}`])).trim();
  // Exit 0: an ancestor (or the tip itself); 1: not; anything else: not a commit here.
  const onBranch = await repo.run(["merge-base", "--is-ancestor", head, tip]);
  if (onBranch.code !== 0) {
    progress(
      s,
      "EXECUTE",
      "REFUSED",
      `task ${task}'s run: a done turn's head is not on its branch`,
    );
    return false;
  }
  const git = taskGit(s, await taskWorkspace(s, task));
  await git.raw(["reset", "--hard", "--quiet", head]);
  await recordsOut(
    git,
    `cfa #${s.n}: task ${task} at ${head.slice(0, 12)}, without its run's records`,
  );
  // Published, leased on the run's tip: a later run of the lead opens the task's worktree
  // from the forge's branch, and its merge must not bring the records into the job branch.
  // Refused (the branch moved past the done record: not a run the lead trusts), the task is
  // not adopted, as for a head off its branch.
  const adopted = (await git.raw(["rev-parse", "--verify", "HEAD"])).trim();
  try {
    if (adopted !== tip) await pushTask(s, task, tip, adopted);
  } catch (error) {
    if ((error as Error | undefined)?.name !== "PushRejectedError") throw error;
    progress(s, "EXECUTE", "REFUSED", `task ${task}'s run: its branch moved after its done turn`);
    return false;
  }
  return true;
}
