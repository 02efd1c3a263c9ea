// A task run's first step: read the job's record from the job branch the
// run fetched (`cfa/<N>`, never written by a task run) and say whether this run may work.
// Read with `git show` from the runner's own checkout: the job branch holds only what the
// lead's run committed, so its state.json is the lead's word.

import { gitClient } from "../../git/git-client.js";
import { jobRoundsAt, readerOf } from "../../git/job-rounds.js";
import { parseJobRecord } from "../../protocol/job-record.js";
import { engineState } from "../../records/engine-state.js";
import { jobPaths } from "../../records/job-paths.js";
import { taskRunStanding, type TaskRunStanding } from "./task-run-standing.js";

export async function readTaskRunStanding(
  repoDir: string,
  n: number,
  task: string,
  epoch: number,
): Promise<TaskRunStanding> {
  const git = gitClient(repoDir);
  const ref = `refs/heads/${jobPaths(n).branch}`;
  // The task belongs to the newest round: a follow-up's, once one began.
  const paths = jobPaths(n, (await jobRoundsAt(readerOf(git), ref, n)).at(-1) ?? 1);
  let text: string;
  try {
    text = await git.raw(["show", `${ref}:${paths.state}`]);
  } catch {
    return { ok: false, reason: `the job has not started (no ${paths.branch} with its state)` };
  }
  const job = parseJobRecord(text, paths.state);
  return taskRunStanding(job, engineState(job), task, epoch);
}
