// A sub-task's merge that conflicts in its parent task's run. hello's
// worker dispatches two sub-tasks that write the same file differently; hello-a merges, and
// hello-b's merge conflicts: aborted, the worker told by the engine (fanout/parent-notices.ts)
// and taking one more turn on it. The run's one record ties each of the worker's 3 later turns
// to what opened it — the two replies, then the engine's word about hello-b — and the lead
// folds it, takes the worker's 4 turns (nothing refused), verifies and merges: DONE, with
// hello-a's x.txt and nothing of hello-b's.

import { describe, expect, it } from "vitest";
import {
  expectBothMerged,
  leadUpToDispatch,
  runOf,
  runTaskInItsRun,
  tasksInOwnRunsRecording,
} from "../support/engine/task-run-pushes.js";
import { pass, worker } from "../support/engine/recordings.js";
import { call, expecting, say, tools } from "../support/engine/script.js";
import { wake } from "../../src/engine/index.js";
import type { TaskRuns } from "../../src/ports/task-runs.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approve } from "../support/engine/person.js";
import { fileOnBranch } from "../support/engine/inspect.js";
import { jobPaths } from "../../src/records/job-paths.js";

const PER_TASK = "execute:\n  runners: per-task\n";
const dispatch = (id: string) =>
  call("dispatch", { id, brief: `Write x.txt containing ${id}`, files: [] });
const writesX = (text: string) => [
  tools(call("write_file", { path: "x.txt", content: `${text}\n` })),
  tools(call("reply", { text: "x.txt written" })),
  say("done"),
];

describe("a sub-task's merge conflicting in its task's run", () => {
  const newJob = useLocalJobs();

  it("hello-b's merge conflicts: the worker hears it from the engine and takes a 4th turn; the record ties its 3 later turns (2 replies, the engine's word about hello-b); the lead takes all 4, nothing refused — DONE", async () => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": [
          tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
          tools(dispatch("hello-a"), dispatch("hello-b")),
          say("Waiting for my sub-tasks."),
          expecting(tools(call("close", { task: "hello-a" })), "x.txt written"),
          say("Waiting for b."),
          expecting(tools(call("close", { task: "hello-b" })), "x.txt written"),
          say("Closed b."),
          expecting(
            tools(call("reply", { text: "hello.txt written; x.txt from hello-a" })),
            "conflicted on: x.txt",
          ),
          say("done"),
        ],
        "worker@dispatch:hello-a": writesX("a"),
        "worker@dispatch:hello-b": writesX("b"),
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
    expect(await runTaskInItsRun(job, "hello", "901")).toMatchObject({ stopped: null, turns: 1 });
    await runTaskInItsRun(job, "world", "902");

    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
    ) as {
      head: string;
      workerTurns?: number;
      mail?: { kind: string; from?: string; about?: string; text?: string }[];
    };
    expect(record.workerTurns).toBe(4);
    expect(record.mail?.map((m) => `${m.kind}:${m.from ?? m.about}`)).toEqual([
      "reply:hello-a",
      "reply:hello-b",
      "engine:hello-b",
    ]);
    expect(record.mail?.[2]?.text).toContain(
      "Merging task hello-b into your branch conflicted on: x.txt",
    );

    let summary = await wake(1, deps);
    expect(job.lines.filter((l) => l.event === "REFUSED")).toEqual([]);
    const helloFile = jobPaths(1).instance({ agent: "worker", thread: "dispatch:hello" });
    expect(fileOnBranch(job, helloFile)?.trim()).toBe(
      git(job.repoDir, "show", `${record.head}:.cfa/turns/transcript.jsonl`).trim(),
    );
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");
    await approve(job);
    summary = await wake(1, deps);
    expect(summary.state).toBe("DONE");
    expectBothMerged(job);
    expect(git(job.repoDir, "show", "cfa/1:x.txt")).toBe("a");
  });
});
