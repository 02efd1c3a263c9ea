// On GitHub, a worker in its task's own run asks a question. The fake GitHub's Actions API and bare
// repository, each task run executed as the workflow's `task` job would (task mode, a fresh clone,
// the scripted model) and followed by its `if: always()` wake of the lead. hello's worker asks in
// its first run; the lead's run folds the question and puts it to the person in a comment,
// dispatching nothing for hello; the person answers with `/answer`; the lead's next run dispatches
// hello's epoch 2, whose worker carries on from the answer; the lead folds, verifies, merges —
// DONE. No task run moves `cfa/1` (the bare repository's ref log) or posts a comment.

import { describe, expect, it } from "vitest";
import { helloAsksRecording } from "../../support/engine/task-run-pushes.js";
import { git, routesWith } from "../../support/github/github-job.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import {
  leadToDone,
  PER_TASK,
  recordOnBranch,
  ROUTES,
  stateOf,
  taskRunsBesideTheJob,
  upToExecute,
} from "../../support/github/task-runs.js";
import { bound } from "../../support/time-bound.js";

/** ROUTES and a run's state, which the lead's runs ask of the runs they dispatched. */
const ROUTES_AND_RUN = routesWith(ROUTES, { plus: ["get-run"] });

describe("a worker's question from its task's own run, on GitHub", () => {
  const mocks = useGitHubMocks();
  const newJob = useGitHubJobs();

  it(
    "hello asks in its run → the lead's run puts q3 to the person (no dispatch for hello) → /answer → epoch 2 dispatched → its run carries on from the answer → the lead folds, verifies, merges — DONE (3 task dispatches); no task run moved cfa/1 or posted",
    async () => {
      const job = await newJob({
        recording: helloAsksRecording(),
        routes: ROUTES_AND_RUN,
        config: PER_TASK,
      });
      const { github } = job;
      await upToExecute(job);
      expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
      const [hello, world] = [...github.runs.keys()];

      await taskRunsBesideTheJob(job, [
        [hello!, "hello", 1],
        [world!, "world", 1],
      ]);
      expect(recordOnBranch(job, "hello")).toMatchObject({
        done: false,
        sends: [{ kind: "ask", text: "hello or hullo?" }],
      });

      // The lead's run folds both: the question goes to the person; nothing is dispatched for hello.
      expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
      expect(github.runs.size).toBe(2);
      const asking = github.botComments(1).filter((c) => c.body.includes("hello or hullo?"));
      expect(asking.length).toBeGreaterThan(0);
      expect(stateOf(job).engine.escalations).toMatchObject({
        q3: { caller: "worker@dispatch:hello", kind: "question" },
      });

      github.comment(1, "ana", "/answer q3 hello, of course");
      expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
      const taskInputs = github.dispatchInputs.filter((i) => i["task"] !== undefined);
      expect(taskInputs).toEqual([
        { job: "1", task: "hello", epoch: "1" },
        { job: "1", task: "world", epoch: "1" },
        { job: "1", task: "hello", epoch: "2" },
      ]);
      const next = [...github.runs.keys()].at(-1)!;

      await taskRunsBesideTheJob(job, [[next, "hello", 2]]);
      expect(git(github.bare, "show", "cfa/1-hello:.cfa/turns/transcript.jsonl")).toContain(
        "hello, of course",
      );

      await leadToDone(job);
      expect(mocks.recorder().invalid()).toEqual([]);
    },
    bound(180_000),
  );
});
