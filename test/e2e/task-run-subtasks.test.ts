// Issue 15 point 6: sub-tasks are not dispatched from a task's own run yet (docs/install.md
// "Tasks in their own runs"). The worker's dispatch there is refused by the tool with a line
// that says what to do, the agent carries on in the same turn, and nothing of the refused
// sub-task exists anywhere: no branch, no task in the job's state, nothing in the record's
// sends; the lead folds the turn, verifies and merges — DONE.

import { describe, expect, it } from "vitest";
import {
  expectBothMerged,
  leadUpToDispatch,
  runTaskInItsRun,
  runOf,
  tasksInOwnRunsRecording,
} from "../support/engine/task-run-pushes.js";
import { worker } from "../support/engine/recordings.js";
import { call, say, tools } from "../support/engine/script.js";
import { wake } from "../../src/engine/index.js";
import type { TaskRuns } from "../../src/ports/task-runs.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approve } from "../support/engine/person.js";
import { state } from "../support/engine/inspect.js";

const PER_TASK = "execute:\n  runners: per-task\n";

describe("a sub-task from a task's own run (issue 15 point 6)", () => {
  const newJob = useLocalJobs();

  it("is refused by the tool (1 refusal, saying to do the work in the task), the worker carries on in the same turn; no branch, task or send of it anywhere; DONE", async () => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": [
          tools(call("dispatch", { id: "hello-sub", brief: "Write hello.txt", files: [] })),
          tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
          tools(call("reply", { text: "hello.txt written" })),
          say("done"),
        ],
        "worker@dispatch:world": worker("world.txt"),
      }),
      config: PER_TASK,
    });
    const port: TaskRuns = {
      dispatch: async (i) => ({ kind: "dispatched", runId: runOf(i.task) }),
      state: async () => ({ status: "active" }),
      cancel: async () => {},
    };
    const deps = await leadUpToDispatch(job, port);
    await wake(1, deps);

    expect(await runTaskInItsRun(job, "hello", "901")).toEqual({
      stopped: null,
      turns: 1,
      done: true,
    });
    await runTaskInItsRun(job, "world", "902");
    const transcript = git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/transcript.jsonl");
    expect(transcript.split("sub-tasks cannot be dispatched from a task's own run")).toHaveLength(
      2,
    );
    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
    ) as { sends: { kind: string }[] };
    expect(record.sends.map((m) => m.kind)).toEqual(["reply"]);
    expect(git(job.repoDir, "branch", "--list", "cfa/1-hello-sub")).toBe("");

    let summary = await wake(1, deps);
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");
    await approve(job);
    summary = await wake(1, deps);
    expect(summary.state).toBe("DONE");
    expectBothMerged(job);
    expect(Object.keys(state(job).engine.tasks as object).sort()).toEqual(["hello", "world"]);
  });
});
