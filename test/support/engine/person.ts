// What a person does on the local forge during a job: review the pull request at the job
// branch's head, comment commands on the issue, fix the config on the default branch.

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Actor, ReviewComment } from "../../../src/ports/forge.js";
import { git, type LocalJob } from "./local-job.js";

export const ANA: Actor = { login: "ana", type: "User" };

export async function openJob(job: LocalJob, labels = ["cfa"]): Promise<number> {
  return job.forge.openIssue({ title: "Greet the world", body: "Two files please", labels });
}

async function pullRequestOf(job: LocalJob, n: number): Promise<number> {
  const pr = await job.forge.findPullRequest(`cfa/${n}`);
  if (!pr) throw new Error(`test: job ${n} has no pull request`);
  return pr.number;
}

/** Approves the job's pull request at the job branch's head (or `commitId`). */
export async function approve(
  job: LocalJob,
  options: { n?: number; by?: Actor; commitId?: string } = {},
) {
  const n = options.n ?? 1;
  return job.forge.submitReview({
    pr: await pullRequestOf(job, n),
    author: options.by ?? ANA,
    state: "APPROVED",
    body: "",
    commitId: options.commitId ?? git(job.repoDir, "rev-parse", `cfa/${n}`),
  });
}

export async function requestChanges(
  job: LocalJob,
  body: string,
  comments: ReviewComment[],
  options: { n?: number; by?: Actor } = {},
) {
  const n = options.n ?? 1;
  return job.forge.submitReview({
    pr: await pullRequestOf(job, n),
    author: options.by ?? ANA,
    state: "CHANGES_REQUESTED",
    body,
    commitId: git(job.repoDir, "rev-parse", `cfa/${n}`),
    comments,
  });
}

export async function say(job: LocalJob, body: string, options: { n?: number; by?: Actor } = {}) {
  return job.forge.commentAs(options.by ?? ANA, options.n ?? 1, body);
}

/** Wakes the job and approves each gate it stops at, `gates` times; returns the last summary. */
export async function approveGates(
  job: LocalJob,
  gates: number,
  wake: (n: number, deps: LocalJob["deps"]) => Promise<{ state: string | null; waitingOn: string }>,
) {
  let summary = await wake(1, job.deps);
  for (let i = 0; i < gates; i++) {
    if (!summary.waitingOn.includes("to review")) {
      throw new Error(`test: expected a gate, the job waits on: ${summary.waitingOn}`);
    }
    await approve(job);
    summary = await wake(1, job.deps);
  }
  return summary;
}

/** The person commits `text` as `.github/cfa.yml` on the default branch (checked out). */
export async function commitConfig(job: LocalJob, text: string): Promise<void> {
  await mkdir(join(job.repoDir, ".github"), { recursive: true });
  await writeFile(join(job.repoDir, ".github", "cfa.yml"), text);
  git(job.repoDir, "add", ".github/cfa.yml");
  git(job.repoDir, "commit", "--quiet", "-m", "fix setup");
}
