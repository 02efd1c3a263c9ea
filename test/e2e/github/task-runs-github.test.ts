// Issue 15 point 6 on GitHub, whole: `execute.runners: per-task`, the fake GitHub's Actions
// API (dispatch with `return_run_details`, get, cancel) and its bare repository. The lead's
// run dispatches each task's run with its inputs; each task run is executed as the workflow's
// `task` job would (the worker's entry in task mode, `--task/--epoch`, a fresh clone, the
// scripted model), then its `if: always()` step wakes the lead; the lead's next run folds
// both, verifies and merges them, and the job ends DONE. No task run moves `cfa/1` (the bare
// repository's ref log) or posts a comment. A 403 on dispatch runs the tasks in the lead's
// run, said once in the status comment.

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
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";

const PER_TASK = "execute:\n  runners: per-task\n";
const ROUTES = routesWith(WHOLE_JOB_ROUTES, { plus: ["repo"], minus: ["org-content"] });

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

/** INTENT and PLAN approved; the worker's run in EXECUTE is the next one. */
async function upToExecute(job: GitHubJob): Promise<void> {
  git(job.github.bare, "config", "core.logAllRefUpdates", "always");
  await job.probot.receive("issues", job.labelled(1, "ana"));
  for (let i = 0; i < 2; i++) {
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    await job.submitReview("ana");
  }
}

describe("tasks in runs of their own on GitHub (issue 15 point 6)", () => {
  const mocks = useGitHubMocks();
  const newJob = useGitHubJobs();

  it("per-task, two tasks: 2 dispatches with (job, task, epoch 1) → each task run executed in task mode from a fresh clone → its wake-lead step → the lead folds both, verifies, merges — DONE; no task run moved cfa/1 or posted", async () => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": worker("hello.txt"),
        "worker@dispatch:world": worker("world.txt"),
      }),
      routes: ROUTES,
      config: PER_TASK,
    });
    const { github } = job;
    await upToExecute(job);

    // EXECUTE: the project lead dispatches both tasks; each goes to a run of its own.
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
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
      const code = await job.runWorker(1, undefined, {
        args: ["--job", "1", "--task", task, "--epoch", "1"],
        env: { GITHUB_RUN_ID: String(id) },
      });
      expect(code, job.lines.join("\n")).toBe(0);
      // Reads only through the API: the issue and the config.
      const routes = github.answered.slice(before).map((a) => a.route);
      expect(routes.filter((r) => !["issue", "content", "graphql"].includes(r))).toEqual([]);
      run.status = "completed";
      run.conclusion = "success";
      // The task job's last step, `if: always()`: a run of the job's lead.
      expect(
        await job.runWorker(1, undefined, {
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
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    await job.submitReview("ana");
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(stateOf(job)).toBe("DONE");
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
