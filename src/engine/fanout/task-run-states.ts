// The lead's word from the Actions API on each task run it still watches after the wake's fold
// (watch-at-wake.ts judges with it). The fold read the branches the worker fetched when the
// run started; a task run that completed after that fetch but before this look would seem
// "completed, nothing folded": a death, its finished turn refused as stale and paid for again,
// with no fault at all. So the branch of every run that is over (completed, or gone) is read
// again from the forge once its state is known — a run completes only after its worker step
// ended, so that branch now holds all it will ever push — and folded again (the fold takes
// each record once) before anything is judged. A run still going is waited for whatever its branch holds. A
// task the fold already finished is no longer watched: its run's state is never asked.

import { gitClient } from "../../git/git-client.js";
import type { TaskRunState } from "../../ports/task-runs.js";
import type { JobRecords, Reporter } from "../job/session.js";
import { runsElsewhere } from "./dispatch-task-run.js";

/** By task: the run the ledger named when its state was read, and that state. */
export type TaskRunStates = Map<string, { runId: string; state: TaskRunState }>;

/** The states, and whether any run is over (its branch read again: fold it again). */
export async function readTaskRunStates(
  s: JobRecords & Reporter,
): Promise<{ states: TaskRunStates; ended: boolean }> {
  const states: TaskRunStates = new Map();
  let ended = false;
  const runs = s.deps.taskRuns;
  if (runs === undefined) return { states, ended };
  for (const [id, ledger] of Object.entries(s.engine.fanout?.tasks ?? {})) {
    const meta = s.engine.tasks[id];
    if (meta === undefined || ledger.runId === null || !runsElsewhere(s, meta.thread)) continue;
    const state = await runs.state(ledger.runId);
    states.set(id, { runId: ledger.runId, state });
    if (state.status === "active") continue;
    await readBranchAgain(s, meta.branch);
    ended = true;
  }
  return { states, ended };
}

/** The local task branch moved to where the forge has it now (the forge is the truth). */
async function readBranchAgain(s: Reporter, branch: string): Promise<void> {
  const sha = await s.deps.forge.readBranch(branch);
  if (sha === null) return;
  await gitClient(s.deps.repoDir).raw(["update-ref", `refs/heads/${branch}`, sha]);
}
