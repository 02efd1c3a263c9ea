// The lead's fold of its task runs, applied to the wake's session (issue 15 point 6): what
// foldTaskRuns made of each task branch reaches the bus as the worker's own turns (appended
// by the lead's run, the only writer of the bus), its cost is charged to the job, its ledger
// kept in the engine state, and each refusal said once (the ledger remembers what was said).

import { gitClient } from "../../git/git-client.js";
import { handleEffects } from "../flow/transitions.js";
import { append, applyChange, progress, type Session } from "../job/session.js";
import { foldTaskRuns } from "./fold-task-runs.js";

/** Folds every task in a run of its own; true when any turn reached the bus. */
export async function foldAtWake(s: Session): Promise<boolean> {
  const fanout = s.engine.fanout;
  if (fanout === undefined || Object.keys(fanout.tasks).length === 0) return false;
  const client = gitClient(s.deps.repoDir);
  const git = (args: string[]) => client.raw(args);
  const folds = await foldTaskRuns(git, s.n, s.engine, s.soup);
  let delivered = false;
  for (const fold of folds) {
    applyChange(s, { type: "task-run-recorded", id: fold.task, ledger: fold.ledger });
    // What the task's run paid reaches the job's cost once (the ledger charges by growth):
    // the caps see it at the lead's next model call.
    if (fold.chargedUsd > 0) applyChange(s, { type: "task-run-charged", costUsd: fold.chargedUsd });
    for (const r of fold.say)
      progress(s, "EXECUTE", "REFUSED", `task ${fold.task}'s run: ${r.what}: ${r.why}`);
    if (fold.events.length > 0) {
      await append(s, fold.events);
      delivered = true;
    }
    await handleEffects(s, fold.effects);
  }
  return delivered;
}
