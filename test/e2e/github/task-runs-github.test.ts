// Tasks in runs of their own on GitHub, whole: `execute.runners: per-task`, the fake GitHub's
// Actions API (dispatch with `return_run_details`, get, cancel) and its bare repository. The lead's
// run dispatches each task's run with its inputs; each task run is executed as the workflow's
// `task` job would (the worker's entry in task mode, `--task/--epoch`, a fresh clone, the scripted
// model), then its `if: always()` step wakes the lead; the lead's next run folds both, verifies and
// merges them, and the job ends DONE. No task run moves `cfa/1` (the bare repository's ref log) or
// posts a comment. A 403 on dispatch runs the tasks in the lead's run, said once in the status
// comment. The whole job runs as the GitHub App (`asApp`): every run mints its own installation
// token and reaches GitHub's git side over HTTP with it, and the bare repository logs each ref
// update it took with the token that carried it — so each task run is seen to push its task branch
// only, each update naming the commit it expected (its lease) and carrying that run's token, while
// `cfa/1` is pushed by the lead's runs alone.

import { describe, expect, it } from "vitest";
import { tasksInOwnRunsRecording } from "../../support/engine/task-run-pushes.js";
import { worker } from "../../support/engine/recordings.js";
import { git } from "../../support/github/github-job.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import {
  AS_APP,
  dispatchedAsApp,
  expectPushesByWriter,
  leadToDone,
  PER_TASK,
  recordOnBranch,
  ROUTES,
  stateOf,
  taskRunsBesideTheJob,
  upToExecute,
  type Owners,
} from "../../support/github/task-runs.js";
import { bound } from "../../support/time-bound.js";

describe("tasks in runs of their own on GitHub", () => {
  const mocks = useGitHubMocks();
  const newJob = useGitHubJobs();

  it(
    "per-task as the app, two tasks: 2 dispatches with (job, task, epoch 1) → each task run executed in task mode from a fresh clone with its own token → its wake-lead step → the lead folds both, verifies, merges — DONE; each task run pushed its branch only, leased, with its token; cfa/1 only the lead's runs; no task run posted",
    async () => {
      const job = await newJob({
        recording: tasksInOwnRunsRecording({
          "worker@dispatch:hello": worker("hello.txt"),
          "worker@dispatch:world": worker("world.txt"),
        }),
        ...AS_APP,
      });
      const { github } = job;
      const owners: Owners = new Map();

      // EXECUTE: the project lead dispatches both tasks; each goes to a run of its own.
      const runIds = await dispatchedAsApp(job, owners);
      const taskInputs = github.dispatchInputs.filter((i) => i["task"] !== undefined);
      expect(taskInputs).toEqual([
        { job: "1", task: "hello", epoch: "1" },
        { job: "1", task: "world", epoch: "1" },
      ]);

      const jobHead = github.head("cfa/1");
      const leadDispatches = github.dispatches.length;
      // Each task run, then the task job's last step, `if: always()`: a run of the job's lead.
      // What the task runs wrote: their branches. cfa/1 and the comments are as the lead left them.
      const routes = await taskRunsBesideTheJob(
        job,
        [
          [runIds[0]!, "hello", 1],
          [runIds[1]!, "world", 1],
        ],
        owners,
      );
      // Reads only through the API (the issue, the config, and the repository for its default
      // branch's name: the agents' instructions are read from that branch's blobs), after
      // minting its token.
      const reads = ["issue", "content", "graphql", "installation", "access-tokens", "repo"];
      for (const r of routes) expect(r.filter((route) => !reads.includes(route))).toEqual([]);
      expect(github.head("cfa/1")).toBe(jobHead);
      expect(github.dispatches.length).toBe(leadDispatches + 2);
      for (const task of ["hello", "world"]) {
        const files = git(github.bare, "ls-tree", "-r", "--name-only", `cfa/1-${task}`);
        expect(files).toContain(`${task}.txt`);
        expect(files).toContain(".cfa/turns/000001-e1.json");
        const record = recordOnBranch(job, task);
        expect(record).toMatchObject({ run: String(runIds[task === "hello" ? 0 : 1]), done: true });
        expect(record.calls).toBe(3);
      }

      // The lead's next run folds both, verifies and merges them, and asks for EXECUTE's review.
      await leadToDone(job, owners);
      // Three records after the model calls, then the code, transcript and ended record at once.
      expectPushesByWriter(job, owners, { hello: 4, world: 4 });
      expect(mocks.recorder().invalid()).toEqual([]);
    },
    bound(120_000),
  );

  it(
    "a 403 on dispatch: the tasks run in the lead's run (1 dispatch tried), DONE, said once in the status comment",
    async () => {
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
      expect(stateOf(job).state).toBe("DONE");
      const files = git(github.bare, "ls-tree", "-r", "--name-only", "cfa/1");
      expect(files).toContain("hello.txt");
      expect(files).toContain("world.txt");
      const status = github.botComments(1).filter((c) => c.body.includes('"kind":"status"'));
      expect(status).toHaveLength(1);
      const said = "tasks run in this run: the work job may not dispatch runs";
      expect(status[0]!.body.split(said)).toHaveLength(2);
    },
    bound(120_000),
  );
});
