// Faults of tasks in runs of their own. Two races between the lead's run and its tasks' runs,
// each shown by a run that acts at the worst moment:
// - save, then dispatch: a run that starts the instant it is dispatched reads the job branch's
//   state first (task-run-standing.ts) and works only if that state names its epoch. Every
//   dispatch here reads the state as such a run would, at the moment it is dispatched.
// - the state first: a run that completes between the lead's fold of its branch and the lead's
//   look at its state must not be taken for dead. Here hello's run pushes its finished turn and
//   completes exactly when the lead asks for its state.
// And a task run's turn that breaks (a model call refused) is no finished turn: the run fails
// and the task's next run takes the turn again.

import { describe, expect, it } from "vitest";
import { readTaskRunStanding, wake } from "../../src/engine/index.js";
import type { TaskRunInputs, TaskRunState } from "../../src/ports/task-runs.js";
import {
  runOf,
  runTaskAsItsRun,
  runTaskInItsRun,
  tasksInOwnRunsRecording,
} from "../support/engine/task-run-pushes.js";
import { git } from "../support/engine/local-job.js";
import type { Model } from "../../src/ports/model.js";
import { taskTurnPath, type TaskTurnRecord } from "../../src/records/task-turn-record.js";
import {
  approvedToDone,
  dispatchedToRuns,
  expectRunDone,
  helloAndWorldInRuns,
  PER_TASK,
  recordedRuns,
} from "../support/engine/task-run-jobs.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";

describe("task runs against the lead's run at the worst moment", () => {
  const newJob = useLocalJobs();

  it("save, then dispatch: each run, reading the job branch the instant it is dispatched (epoch 1 of both tasks, epoch 2 after a dead run), finds its epoch named there", async () => {
    const job = await newJob({ recording: tasksInOwnRunsRecording(), config: PER_TASK });
    const standing: string[] = [];
    const runs = recordedRuns();
    const port = {
      ...runs.port,
      dispatch: async (inputs: TaskRunInputs) => {
        // As a run that starts at once reads it: the job branch as the forge holds it now.
        const s = await readTaskRunStanding(job.repoDir, inputs.job, inputs.task, inputs.epoch);
        standing.push(`${inputs.task}@${inputs.epoch}: ${s.ok ? "works" : s.reason}`);
        return runs.port.dispatch(inputs);
      },
    };
    const deps = await dispatchedToRuns(job, port);
    expect(standing).toEqual(["hello@1: works", "world@1: works"]);

    // hello's run dies with nothing folded: its next epoch is saved, then dispatched.
    await runTaskAsItsRun(job.repoDir, "world", "902", "world.txt");
    runs.ended.set("901", { status: "completed", conclusion: "failure" });
    runs.ended.set("902", { status: "completed", conclusion: "success" });
    await wake(1, deps);
    expect(runs.dispatched.at(-1)).toEqual({ job: 1, task: "hello", epoch: 2 });
    expect(standing).toEqual(["hello@1: works", "world@1: works", "hello@2: works"]);
  });

  it("the state first: hello's run pushes its finished turn and completes just as the lead asks for its state — folded and merged, never taken for dead (2 dispatches, 0 cancels)", async () => {
    const job = await newJob({ recording: tasksInOwnRunsRecording(), config: PER_TASK });
    const ended = new Map<string, TaskRunState>();
    const runs = recordedRuns((i) => ({ kind: "dispatched", runId: runOf(i.task) }));
    const port = {
      ...runs.port,
      state: async (runId: string): Promise<TaskRunState> => {
        if (runId === "901" && !ended.has("901")) {
          // The run's last push lands, then it completes: after the lead fetched its branch.
          await runTaskAsItsRun(job.repoDir, "hello", "901", "hello.txt");
          ended.set("901", { status: "completed", conclusion: "success" });
        }
        return ended.get(runId) ?? (await runs.port.state(runId));
      },
    };
    const deps = await dispatchedToRuns(job, port);
    await runTaskAsItsRun(job.repoDir, "world", "902", "world.txt");
    runs.ended.set("902", { status: "completed", conclusion: "success" });

    const atGate = await wake(1, deps);
    expect(runs.dispatched).toHaveLength(2);
    expect(runs.cancelled).toEqual([]);
    expect(job.lines.filter((l) => l.detail.includes("no turn folded"))).toEqual([]);
    await approvedToDone(job, deps, atGate);
  });
});

describe("a task run's turn that breaks", () => {
  const newJob = useLocalJobs();

  it("is not recorded as ended (nor the task done): the run fails, its record says only what its calls cost, and the lead's next run redoes the turn from the last folded one", async () => {
    let refused = 0;
    const job = await newJob(helloAndWorldInRuns());
    const inner = job.model;
    // hello's second call (its reply) is refused once, as an API that answers 400 would.
    const model: Model = {
      ...inner,
      complete: async (request, options) => {
        const assistant = request.messages.filter((m) => m.role === "assistant").length;
        if (request.instance === "worker@dispatch:hello" && assistant === 1 && refused++ === 0)
          throw new Error("400 invalid_request_error: refused");
        return inner.complete(request, options);
      },
    };
    const runs = recordedRuns();
    const deps = await dispatchedToRuns(job, runs.port);
    await expect(
      runTaskInItsRun({ ...job, deps: { ...job.deps, model } }, "hello", "901"),
    ).rejects.toThrow(/worker@dispatch:hello's turn broke/);
    const record = JSON.parse(
      git(job.repoDir, "show", `cfa/1-hello:${taskTurnPath(1, 1)}`),
    ) as TaskTurnRecord;
    expect(record).toMatchObject({ ended: false, done: false, calls: 1 });

    // The run went red; world's finished. hello's next epoch redoes the turn and finishes it.
    await expectRunDone(job, "world", "902");
    runs.ended.set("901", { status: "completed", conclusion: "failure" });
    runs.ended.set("902", { status: "completed", conclusion: "success" });
    await wake(1, deps);
    expect(runs.dispatched.at(-1)).toEqual({ job: 1, task: "hello", epoch: 2 });
    await expectRunDone(job, "hello", "903", { epoch: 2 });
    runs.ended.set("903", { status: "completed", conclusion: "success" });
    await approvedToDone(job, deps, await wake(1, deps));
  });
});
