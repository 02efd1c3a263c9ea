// Issue 15 point 6: sub-tasks stay in their parent task's run (docs/install.md "Tasks in
// their own runs"). A worker in its task's own run dispatches two sub-tasks: both are
// provisioned from the task's worktree in that run, worked, verified and merged into the task
// branch there, their costs charged to the task's one record; the record carries only the
// worker's reply to its parent. The lead folds it, verifies and merges the task — DONE. The
// job branch moves only with the lead's run, and no sub-task branch ever reaches the remote.

import { describe, expect, it } from "vitest";
import {
  expectBothMerged,
  leadUpToDispatch,
  runTaskInItsRun,
  runOf,
  tasksInOwnRunsRecording,
} from "../support/engine/task-run-pushes.js";
import { pass, worker } from "../support/engine/recordings.js";
import { call, expecting, say, tools } from "../support/engine/script.js";
import { wake } from "../../src/engine/index.js";
import type { TaskRuns } from "../../src/ports/task-runs.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approve } from "../support/engine/person.js";
import { state } from "../support/engine/inspect.js";

const PER_TASK = "execute:\n  runners: per-task\n";
const dispatch = (id: string, brief: string) => call("dispatch", { id, brief, files: [] });

describe("sub-tasks in a task's own run (issue 15 point 6)", () => {
  const newJob = useLocalJobs();

  it("2 sub-tasks dispatched, verified and merged into the task branch in its run (1 record, only the reply to the parent, every call charged there); the lead folds, verifies, merges: DONE, no sub-task branch on the remote", async () => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": [
          tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
          tools(dispatch("hello-a", "Write a.txt"), dispatch("hello-b", "Write b.txt")),
          say("Waiting for my sub-tasks."),
          expecting(tools(call("close", { task: "hello-a" })), "a.txt written"),
          say("Waiting for b."),
          expecting(tools(call("close", { task: "hello-b" })), "b.txt written"),
          tools(call("reply", { text: "hello.txt written, with a.txt and b.txt" })),
          say("done"),
        ],
        "worker@dispatch:hello-a": worker("a.txt"),
        "worker@dispatch:hello-b": worker("b.txt"),
        "verifier@verify:hello-a-1": pass(),
        "verifier@verify:hello-b-1": pass(),
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
    const jobHead = git(job.repoDir, "rev-parse", "cfa/1");

    expect(await runTaskInItsRun(job, "hello", "901")).toEqual({
      stopped: null,
      turns: 1,
      done: true,
    });
    await runTaskInItsRun(job, "world", "902");
    // The task runs wrote their task branches alone.
    expect(git(job.repoDir, "rev-parse", "cfa/1")).toBe(jobHead);
    expect(git(job.repoDir, "branch", "--list", "cfa/1-hello-*")).toBe("");
    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
    ) as { sends: { kind: string; to: string }[]; done: boolean; calls: number; head: string };
    expect(record.sends.map((m) => m.kind)).toEqual(["reply"]);
    expect(record.done).toBe(true);
    // Every model call of the subtree: the worker's 8, each sub-task's 3, each verifier's 1.
    expect(record.calls).toBe(8 + 3 + 3 + 1 + 1);
    expect(git(job.repoDir, "ls-tree", "--name-only", record.head).split("\n")).toEqual(
      expect.arrayContaining(["a.txt", "b.txt", "hello.txt"]),
    );
    const merges = git(job.repoDir, "log", "--merges", "--format=%s", record.head);
    expect(merges).toContain("merge task hello-a");
    expect(merges).toContain("merge task hello-b");
    expect(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/transcript.jsonl").split(
        "The verifier passed task hello-",
      ),
    ).toHaveLength(3);

    let summary = await wake(1, deps);
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");
    await approve(job);
    summary = await wake(1, deps);
    expect(summary.state).toBe("DONE");
    expectBothMerged(job);
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("a.txt");
    expect(files).toContain("b.txt");
    expect(files).not.toContain(".cfa/turns/");
    expect(Object.keys(state(job).engine.tasks as object).sort()).toEqual(["hello", "world"]);
    expect(git(job.repoDir, "branch", "--list", "cfa/1-hello*")).toBe("");
  });
});
