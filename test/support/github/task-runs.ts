// The set-up the GitHub e2e tests of tasks in runs of their own share: the job's config and
// routes (as the app or not), its state and `cfa/1`'s ref log as the fake GitHub's bare
// repository holds them, runs whose minted tokens are told apart, the job up to EXECUTE and
// the lead's dispatch of both tasks, one task run as the workflow's `task` job runs it (task
// mode, a fresh clone, then its `if: always()` wake of the lead) and task runs that leave the
// job branch and the comments alone, a task branch's turn record, the lead's runs to DONE, and
// what the push log must show of who pushed what.

import { expect } from "vitest";
import { taskTurnPath, type TaskTurnRecord } from "../../../src/records/task-turn-record.js";
import { git, routesWith, WHOLE_JOB_ROUTES, type GitHubJob } from "./github-job.js";
import { ZERO_OID } from "./push-log-hook.js";

export const PER_TASK = "execute:\n  runners: per-task\n";

/** The whole job's routes with the repository's (dispatch, runs); as the app, without minting. */
export const ROUTES = routesWith(WHOLE_JOB_ROUTES, { plus: ["repo"], minus: ["org-content"] });

/**
 * As the app: each run mints its installation token (@octokit/auth-app). The Probot app's own
 * reaction to the label is left out: the test starts every run itself, and the fake, checking
 * credentials, would refuse the test app's token (it is not one the fake minted).
 */
export const APP_ROUTES = routesWith(ROUTES, {
  plus: ["installation", "access-tokens"],
  minus: ["issue-reaction"],
});

/** A per-task job as the GitHub App (useGitHubJobs' options but its recording). */
export const AS_APP = { routes: APP_ROUTES, config: PER_TASK, asApp: true } as const;

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
 * An AS_APP job up to EXECUTE (upToExecute) and the lead's run in it, which dispatches hello
 * and world to runs of their own. Returns the runs' ids in dispatch order.
 */
export async function dispatchedAsApp(job: GitHubJob, owners: Owners): Promise<number[]> {
  await upToExecute(job, owners, true);
  expect(await runAs(job, owners, "lead"), job.lines.join("\n")).toBe(0);
  const runIds = [...job.github.runs.keys()];
  expect(runIds).toHaveLength(2);
  return runIds;
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
 * Each of `runs` ([run id, task, epoch]) as taskRun runs it, one after the other; together
 * they leave `cfa/1` (the bare repository's ref log) and the comments as the lead left
 * them. Returns the API routes GitHub answered each task run itself.
 */
export async function taskRunsBesideTheJob(
  job: GitHubJob,
  runs: [id: number, task: string, epoch: number][],
  owners: Owners = new Map(),
): Promise<string[][]> {
  const jobLog = jobBranchLog(job);
  const comments = job.github.comments.map((c) => c.body);
  const routes: string[][] = [];
  for (const [id, task, epoch] of runs) routes.push(await taskRun(job, id, task, epoch, owners));
  expect(jobBranchLog(job)).toEqual(jobLog);
  expect(job.github.comments.map((c) => c.body)).toEqual(comments);
  return routes;
}

/**
 * An AS_APP job's lead dispatches hello and world (dispatchedAsApp), and their runs run at
 * epoch 1 beside the job (taskRunsBesideTheJob). Returns the runs' ids, hello's first.
 */
export async function bothTasksRunAsApp(job: GitHubJob, owners: Owners): Promise<number[]> {
  const [hello, world] = await dispatchedAsApp(job, owners);
  await taskRunsBesideTheJob(
    job,
    [
      [hello!, "hello", 1],
      [world!, "world", 1],
    ],
    owners,
  );
  return [hello!, world!];
}

/** Turn record `seq` of `task`'s run at `epoch`, as its branch in the bare repository holds it. */
export function recordOnBranch(job: GitHubJob, task: string, seq = 1, epoch = 1): TaskTurnRecord {
  const path = taskTurnPath(seq, epoch);
  return JSON.parse(git(job.github.bare, "show", `cfa/1-${task}:${path}`)) as TaskTurnRecord;
}

/**
 * The lead's run (as `owners`' "lead" when given, else the worker's run) folds what the task
 * runs left and asks for EXECUTE's review; the person approves; the lead's next run ends the
 * job DONE: `cfa/1` holds hello.txt, world.txt and `files` and no turn record, and the tasks'
 * branches are gone (only `cfa/1` and `main` are left).
 */
export async function leadToDone(
  job: GitHubJob,
  owners?: Owners,
  files: string[] = [],
): Promise<void> {
  const lead = () => (owners ? runAs(job, owners, "lead") : job.runWorker(1));
  expect(await lead(), job.lines.join("\n")).toBe(0);
  await job.submitReview("ana");
  expect(await lead(), job.lines.join("\n")).toBe(0);
  expect(stateOf(job).state).toBe("DONE");
  const merged = git(job.github.bare, "ls-tree", "-r", "--name-only", "cfa/1");
  for (const f of ["hello.txt", "world.txt", ...files]) expect(merged).toContain(f);
  expect(merged).not.toContain(".cfa/turns/");
  expect(job.github.branches().sort()).toEqual(["cfa/1", "main"]);
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
