// The set-up the GitHub e2e tests of tasks in runs of their own share (issue 15 point 6): the
// job's config, its state and `cfa/1`'s ref log as the fake GitHub's bare repository holds
// them, runs whose minted tokens are told apart, the job up to EXECUTE, one task run as the
// workflow's `task` job runs it (task mode, a fresh clone, then its `if: always()` wake of the
// lead), and what the push log must show of who pushed what.

import { expect } from "vitest";
import { git, type GitHubJob } from "./github-job.js";
import { ZERO_OID } from "./push-log-hook.js";

export const PER_TASK = "execute:\n  runners: per-task\n";

export function stateOf(job: GitHubJob): { state: string; engine: Record<string, unknown> } {
  return JSON.parse(git(job.github.bare, "show", "cfa/1:.cfa/jobs/1/state.json")) as {
    state: string;
    engine: Record<string, unknown>;
  };
}

/** The bare repository's updates of `cfa/1`, oldest first (core.logAllRefUpdates). */
export function jobBranchLog(job: GitHubJob): string[] {
  return git(job.github.bare, "reflog", "show", "--format=%H", "refs/heads/cfa/1")
    .split("\n")
    .filter((l) => l !== "")
    .reverse();
}

/** Who each installation token was minted for: the run that minted it. */
export type Owners = Map<string, string>;

/** `job.runWorker` as `who`: the tokens minted while it runs are that run's. */
export async function runAs(
  job: GitHubJob,
  owners: Owners,
  who: string,
  more?: Parameters<GitHubJob["runWorker"]>[2],
): Promise<number> {
  const before = job.github.minted.length;
  const code = await job.runWorker(1, undefined, more);
  for (const m of job.github.minted.slice(before)) owners.set(m.token, who);
  return code;
}

/**
 * INTENT and PLAN approved; the worker's run in EXECUTE is the next one. As the app, the
 * test starts every run itself (the label's delivery is not received).
 */
export async function upToExecute(
  job: GitHubJob,
  owners: Owners = new Map(),
  asApp = false,
): Promise<void> {
  git(job.github.bare, "config", "core.logAllRefUpdates", "always");
  if (!asApp) await job.probot.receive("issues", job.labelled(1, "ana"));
  for (let i = 0; i < 2; i++) {
    expect(await runAs(job, owners, "lead"), job.lines.join("\n")).toBe(0);
    await job.submitReview("ana");
  }
}

/**
 * Run `id` as the workflow's `task` job runs it (`task <task>` its tokens' owner), then its
 * `if: always()` wake of the lead (`wake-lead <task>`). Returns the API routes GitHub answered
 * the task run itself.
 */
export async function taskRun(
  job: GitHubJob,
  id: number,
  task: string,
  epoch: number,
  owners: Owners = new Map(),
): Promise<string[]> {
  const run = job.github.runs.get(id)!;
  run.status = "in_progress";
  const before = job.github.answered.length;
  const code = await runAs(job, owners, `task ${task}`, {
    args: ["--job", "1", "--task", task, "--epoch", String(epoch)],
    env: { GITHUB_RUN_ID: String(id) },
  });
  expect(code, job.lines.join("\n")).toBe(0);
  const routes = job.github.answered.slice(before).map((a) => a.route);
  run.status = "completed";
  run.conclusion = "success";
  expect(
    await runAs(job, owners, `wake-lead ${task}`, {
      args: ["--job", "1", "--wake-lead"],
      env: { ANTHROPIC_API_KEY: "" },
    }),
  ).toBe(0);
  return routes;
}

/**
 * From the bare repository's log of what git sent over HTTP: every update came with a token a
 * run minted; each task run updated its own branch only (`pushes[task]` times), every update
 * naming the commit the branch was at (a lease on it: never all zeros, which would create the
 * branch), one after the other from the commit the lead created it at; `cfa/1` was updated by
 * the lead's runs only; no other branch of the job's was ever pushed (a sub-task's stays in
 * its parent's run); GitHub refused no git request (no token used past its run or its hour).
 */
export function expectPushesByWriter(
  job: GitHubJob,
  owners: Owners,
  pushes: Record<string, number>,
): void {
  const updates = job.pushLog();
  expect(updates.length).toBeGreaterThan(0);
  for (const u of updates) expect(owners.get(u.token), u.ref).toBeDefined();
  const tasks = Object.keys(pushes);
  expect(
    new Set(updates.map((u) => u.ref).filter((r) => r.startsWith("refs/heads/cfa/1-"))),
  ).toEqual(new Set(tasks.map((t) => `refs/heads/cfa/1-${t}`)));
  for (const task of tasks) {
    const ref = `refs/heads/cfa/1-${task}`;
    const mine = updates.filter((u) => owners.get(u.token) === `task ${task}`);
    expect(mine.length, task).toBe(pushes[task]);
    expect(new Set(mine.map((u) => u.ref))).toEqual(new Set([ref]));
    // Only this run's token, and a token of no other run on its branch but the lead's.
    const tokens = new Set(mine.map((u) => u.token));
    expect(tokens.size).toBe(1);
    for (const u of updates.filter((x) => x.ref === ref && !tokens.has(x.token)))
      expect(owners.get(u.token)).toBe("lead");
    const created = updates.find((u) => u.ref === ref && u.old === ZERO_OID);
    expect(owners.get(created!.token)).toBe("lead");
    expect(mine[0]!.old).toBe(created!.new);
    for (const [i, u] of mine.entries()) {
      expect(u.old).not.toBe(ZERO_OID);
      if (i > 0) expect(u.old).toBe(mine[i - 1]!.new);
    }
  }
  const jobBranch = updates.filter((u) => u.ref === "refs/heads/cfa/1");
  expect(jobBranch.length).toBeGreaterThan(0);
  expect(new Set(jobBranch.map((u) => owners.get(u.token)))).toEqual(new Set(["lead"]));
  expect(job.gitRequests.filter((r) => r.status !== 200)).toEqual([]);
}
