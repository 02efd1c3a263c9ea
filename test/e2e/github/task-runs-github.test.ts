// Issue 15 point 6 on GitHub, whole: `execute.runners: per-task`, the fake GitHub's Actions
// API (dispatch with `return_run_details`, get, cancel) and its bare repository. The lead's
// run dispatches each task's run with its inputs; each task run is executed as the workflow's
// `task` job would (the worker's entry in task mode, `--task/--epoch`, a fresh clone, the
// scripted model), then its `if: always()` step wakes the lead; the lead's next run folds
// both, verifies and merges them, and the job ends DONE. No task run moves `cfa/1` (the bare
// repository's ref log) or posts a comment. A 403 on dispatch runs the tasks in the lead's
// run, said once in the status comment.
// The whole job runs as the GitHub App (`asApp`): every run mints its own installation token
// and reaches GitHub's git side over HTTP with it, and the bare repository logs each ref update
// it took with the token that carried it — so each task run is seen to push its task branch
// only, each update naming the commit it expected (its lease) and carrying that run's token,
// while `cfa/1` is pushed by the lead's runs alone.

import { describe, expect, it } from "vitest";
import { tasksInOwnRunsRecording } from "../../support/engine/task-run-pushes.js";
import { worker } from "../../support/engine/recordings.js";
import {
  git,
  routesWith,
  WHOLE_JOB_ROUTES,
  type GitHubJob,
} from "../../support/github/github-job.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { ZERO_OID } from "../../support/github/push-log-hook.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";

const PER_TASK = "execute:\n  runners: per-task\n";
const ROUTES = routesWith(WHOLE_JOB_ROUTES, { plus: ["repo"], minus: ["org-content"] });
/**
 * As the app: each run mints its installation token (@octokit/auth-app). The Probot app's own
 * reaction to the label is left out: the test starts every run itself, and the fake, checking
 * credentials, would refuse the test app's token (it is not one the fake minted).
 */
const APP_ROUTES = routesWith(ROUTES, {
  plus: ["installation", "access-tokens"],
  minus: ["issue-reaction"],
});

function stateOf(job: GitHubJob): string {
  const text = git(job.github.bare, "show", "cfa/1:.cfa/jobs/1/state.json");
  return (JSON.parse(text) as { state: string }).state;
}

/** The bare repository's updates of `cfa/1`, oldest first (core.logAllRefUpdates). */
function jobBranchLog(job: GitHubJob): string[] {
  return git(job.github.bare, "reflog", "show", "--format=%H", "refs/heads/cfa/1")
    .split("\n")
    .filter((l) => l !== "")
    .reverse();
}

/** Who each installation token was minted for: the run that minted it. */
type Owners = Map<string, string>;

/** `job.runWorker` as `who`: the tokens minted while it runs are that run's. */
async function runAs(
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

/** INTENT and PLAN approved; the worker's run in EXECUTE is the next one. */
async function upToExecute(
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
 * From the bare repository's log of what git sent over HTTP: every update came with a token a
 * run minted; each task run updated its own branch only, every update naming the commit the
 * branch was at (a lease on it: never all zeros, which would create the branch), one after
 * the other from the commit the lead created it at; `cfa/1` was updated by the lead's runs
 * only; GitHub refused no git request (no token used past its run or its hour).
 */
function expectPushesByWriter(job: GitHubJob, owners: Owners): void {
  const updates = job.pushLog();
  expect(updates.length).toBeGreaterThan(0);
  for (const u of updates) expect(owners.get(u.token), u.ref).toBeDefined();
  for (const task of ["hello", "world"]) {
    const ref = `refs/heads/cfa/1-${task}`;
    const mine = updates.filter((u) => owners.get(u.token) === `task ${task}`);
    // Three records after the model calls, then the code, transcript and ended record at once.
    expect(mine.length, task).toBe(4);
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

describe("tasks in runs of their own on GitHub (issue 15 point 6)", () => {
  const mocks = useGitHubMocks();
  const newJob = useGitHubJobs();

  it("per-task as the app, two tasks: 2 dispatches with (job, task, epoch 1) → each task run executed in task mode from a fresh clone with its own token → its wake-lead step → the lead folds both, verifies, merges — DONE; each task run pushed its branch only, leased, with its token; cfa/1 only the lead's runs; no task run posted", async () => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": worker("hello.txt"),
        "worker@dispatch:world": worker("world.txt"),
      }),
      routes: APP_ROUTES,
      config: PER_TASK,
      asApp: true,
    });
    const { github } = job;
    const owners: Owners = new Map();
    await upToExecute(job, owners, true);

    // EXECUTE: the project lead dispatches both tasks; each goes to a run of its own.
    expect(await runAs(job, owners, "lead"), job.lines.join("\n")).toBe(0);
    const taskInputs = github.dispatchInputs.filter((i) => i["task"] !== undefined);
    expect(taskInputs).toEqual([
      { job: "1", task: "hello", epoch: "1" },
      { job: "1", task: "world", epoch: "1" },
    ]);
    const runIds = [...github.runs.keys()];
    expect(runIds).toHaveLength(2);

    const jobHead = github.head("cfa/1");
    const jobLog = jobBranchLog(job);
    const comments = github.comments.map((c) => c.body);
    const leadDispatches = github.dispatches.length;
    for (const [i, task] of ["hello", "world"].entries()) {
      const id = runIds[i]!;
      const run = github.runs.get(id)!;
      run.status = "in_progress";
      const before = github.answered.length;
      const code = await runAs(job, owners, `task ${task}`, {
        args: ["--job", "1", "--task", task, "--epoch", "1"],
        env: { GITHUB_RUN_ID: String(id) },
      });
      expect(code, job.lines.join("\n")).toBe(0);
      // Reads only through the API (the issue and the config), after minting its token.
      const routes = github.answered.slice(before).map((a) => a.route);
      const reads = ["issue", "content", "graphql", "installation", "access-tokens"];
      expect(routes.filter((r) => !reads.includes(r))).toEqual([]);
      run.status = "completed";
      run.conclusion = "success";
      // The task job's last step, `if: always()`: a run of the job's lead.
      expect(
        await runAs(job, owners, `wake-lead ${task}`, {
          args: ["--job", "1", "--wake-lead"],
          env: { ANTHROPIC_API_KEY: "" },
        }),
      ).toBe(0);
    }
    // What the task runs wrote: their branches. cfa/1 and the comments are as the lead left them.
    expect(github.head("cfa/1")).toBe(jobHead);
    expect(jobBranchLog(job)).toEqual(jobLog);
    expect(github.comments.map((c) => c.body)).toEqual(comments);
    expect(github.dispatches.length).toBe(leadDispatches + 2);
    for (const task of ["hello", "world"]) {
      const files = git(github.bare, "ls-tree", "-r", "--name-only", `cfa/1-${task}`);
      expect(files).toContain(`${task}.txt`);
      expect(files).toContain(".cfa/turns/000001-e1.json");
      const record = JSON.parse(
        git(github.bare, "show", `cfa/1-${task}:.cfa/turns/000001-e1.json`),
      ) as { run: string; done: boolean; calls: number };
      expect(record).toMatchObject({ run: String(runIds[task === "hello" ? 0 : 1]), done: true });
      expect(record.calls).toBe(3);
    }

    // The lead's next run folds both, verifies and merges them, and asks for EXECUTE's review.
    expect(await runAs(job, owners, "lead"), job.lines.join("\n")).toBe(0);
    await job.submitReview("ana");
    expect(await runAs(job, owners, "lead"), job.lines.join("\n")).toBe(0);
    expect(stateOf(job)).toBe("DONE");
    expectPushesByWriter(job, owners);
    const files = git(github.bare, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).toContain("world.txt");
    expect(files).not.toContain(".cfa/turns/000001-e1.json");
    expect(github.branches().sort()).toEqual(["cfa/1", "main"]);
    expect(mocks.recorder().invalid()).toEqual([]);
  }, 120_000);

  it("a 403 on dispatch: the tasks run in the lead's run (1 dispatch tried), DONE, said once in the status comment", async () => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": worker("hello.txt"),
        "worker@dispatch:world": worker("world.txt"),
      }),
      routes: ROUTES.filter((r) => r !== "repo"),
      config: PER_TASK,
    });
    const { github } = job;
    await upToExecute(job);
    // Only the task dispatch is refused: the lead's own dispatches (the app's) went before.
    github.failures.set("dispatch", {
      status: 403,
      message: "Resource not accessible by integration",
    });

    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(github.runs.size).toBe(0);
    github.failures.delete("dispatch");
    await job.submitReview("ana");
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(stateOf(job)).toBe("DONE");
    const files = git(github.bare, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).toContain("world.txt");
    const status = github.botComments(1).filter((c) => c.body.includes('"kind":"status"'));
    expect(status).toHaveLength(1);
    const said = "tasks run in this run: the work job may not dispatch runs";
    expect(status[0]!.body.split(said)).toHaveLength(2);
  }, 120_000);
});
