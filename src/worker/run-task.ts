// Task mode (issue 15 point 6): the workflow's `task` job, dispatched by a job's lead with
// inputs job, task and epoch. It fetches the job's branches and reads the job branch's state
// before anything else: a run that is not the one the lead trusts now (a stale epoch, the task
// no longer open, the job withdrawn, ended or paused) exits at once with one line, having
// written nothing. It never writes `cfa/<N>`, the bus, the state, the journal's branch or a
// comment — it has no route to them: it builds no forge and opens no session.

import { readTaskRunStanding } from "../engine/index.js";
import { fetchJobBranches } from "./fetch-job-branches.js";
import type { WorkerContext } from "./worker-context.js";

export interface TaskRunResult {
  exitCode: number;
  /** Why the run did no work (null: it worked). */
  skipped: string | null;
}

export async function runTask(
  mode: { job: number; task: string; epoch: number },
  w: WorkerContext,
): Promise<TaskRunResult> {
  const { env, logger } = w;
  const at = `job #${mode.job} task ${mode.task} (epoch ${mode.epoch})`;
  await fetchJobBranches({ repoDir: env.GITHUB_WORKSPACE, job: mode.job, token: w.github.token });
  const standing = await readTaskRunStanding(env.GITHUB_WORKSPACE, mode.job, mode.task, mode.epoch);
  if (!standing.ok) {
    // Nothing to fail: the lead moved on; its next wake (this job's last step) sees why.
    logger.info(`cfa/worker: ${at}: ${standing.reason}; this run exits without writing`);
    return { exitCode: 0, skipped: standing.reason };
  }
  // The lead never dispatches a run of its own for a task yet (nothing writes a ledger):
  // running the task's instances here is the part of issue 15 point 6 still to build.
  logger.error(
    `cfa/worker: ${at}: this version of cfa-bot cannot run a task in a run of its own yet; the lead's next run takes it (set execute.runners: single meanwhile)`,
  );
  return { exitCode: 1, skipped: "task runs are not connected in this version" };
}
