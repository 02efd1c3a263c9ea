// Tasks in runs of their own, the lead's side: with `execute.runners: per-task` and a TaskRuns
// port, the project lead's dispatch starts each task in a run of its own (ledger at epoch 1, the
// `task` job's inputs) and the lead's run works on neither task nor nudges its lead while it waits
// on them; a repository that cannot run them (403 on dispatch) runs its tasks in the lead's run,
// said once in the status comment; what a task's run pushes (its code, its turn records) is folded
// at the lead's next wake, verified and merged at the record's head. The port here is the engine's
// own interface, answered in the test; the GitHub client behind it is tested over the fake GitHub
// (test/unit/adapters/github/task-runs.test.ts). What the task's run pushes is written here as task
// mode would, without a model, or by task mode itself (runTaskInItsRun).

import { describe, expect, it } from "vitest";
import {
  leadUpToDispatch,
  runTaskAsItsRun,
  runOf,
  runTaskInItsRun,
  tasksInOwnRunsRecording,
} from "../support/engine/task-run-pushes.js";
import {
  approvedToDone,
  dispatchedToRuns,
  PER_TASK,
  recordedRuns,
} from "../support/engine/task-run-jobs.js";
import { EXECUTE_STEPS, happyRecording, worker } from "../support/engine/recordings.js";
import { wake, type EngineDeps } from "../../src/engine/index.js";
import { asConversationModel, git, type LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approve, openJob, say } from "../support/engine/person.js";
import { commentsOfKind, fileOnBranch, state } from "../support/engine/inspect.js";
import { jobPaths } from "../../src/records/job-paths.js";
import { readJobRecords } from "../../src/cli/job-records.js";
import { readJobView } from "../../src/cli/job-view.js";
import { renderInspect } from "../../src/cli/inspect-render.js";

/** The job opened and woken, then each of its three gates approved and the job woken again. */
async function approvedThroughEveryGate(job: LocalJob, deps: EngineDeps) {
  await openJob(job);
  let summary = await wake(1, deps);
  for (let i = 0; i < 3; i++) {
    await approve(job);
    summary = await wake(1, deps);
  }
  return summary;
}

describe("the lead dispatches its tasks to runs of their own", () => {
  const newJob = useLocalJobs();

  it("per-task: two tasks → two dispatches (job, task, epoch 1), each ledger with its run id; the lead's run runs neither worker and does not nudge its lead", async () => {
    const job = await newJob({ recording: happyRecording(), config: PER_TASK });
    const runs = recordedRuns((i) => ({ kind: "dispatched", runId: runOf(i.task) }));
    const deps = { ...job.deps, taskRuns: runs.port };
    await openJob(job);
    await wake(1, deps);
    await approve(job);
    await wake(1, deps);
    await approve(job);
    const summary = await wake(1, deps);

    expect(summary.state).toBe("EXECUTE");
    expect(runs.dispatched).toEqual([
      { job: 1, task: "hello", epoch: 1 },
      { job: 1, task: "world", epoch: 1 },
    ]);
    expect(summary.waitingOn).toBe("the tasks' own runs: hello (run 901), world (run 902).");
    const engine = JSON.parse(fileOnBranch(job, jobPaths(1).state)!).engine as {
      fanout: { tasks: Record<string, { epoch: number; runId: string }> };
    };
    expect(engine.fanout.tasks.hello).toMatchObject({ epoch: 1, runId: "901" });
    expect(engine.fanout.tasks.world).toMatchObject({ epoch: 1, runId: "902" });
    // Neither worker took a turn here, and the lead was not nudged past its second turn.
    const unplayed = asConversationModel(job.model).unplayed();
    expect(unplayed["worker@dispatch:hello"]).toBe(3);
    expect(unplayed["worker@dispatch:world"]).toBe(3);
    expect(job.lines.filter((l) => l.event === "NUDGE")).toEqual([]);
    // Each task's branch is published for its run to fetch.
    expect(git(job.repoDir, "branch", "--list", "cfa/1-*")).toContain("cfa/1-hello");
  });

  it("per-task end to end: each task's run pushes its code and records, the lead's next wake folds both (the workers' replies, their cost), verifies and merges each at its record's head without the records, DONE", async () => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording(),
      config: PER_TASK,
    });
    const runs = recordedRuns((i) => ({ kind: "dispatched", runId: runOf(i.task) }));
    const deps = await leadUpToDispatch(job, runs.port);
    let summary = await wake(1, deps);
    expect(summary.waitingOn).toContain("the tasks' own runs");
    const costBefore = state(job).costUsd;

    await runTaskAsItsRun(job.repoDir, "hello", "901", "hello.txt");
    await runTaskAsItsRun(job.repoDir, "world", "902", "world.txt");
    summary = await wake(1, deps);
    expect(summary.state).toBe("EXECUTE");
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");
    // Both runs' cost is the job's, once.
    expect(state(job).costUsd).toBeGreaterThanOrEqual(costBefore + 0.08 - 1e-9);
    await approve(job);
    summary = await wake(1, deps);
    expect(summary.state).toBe("DONE");
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).toContain("world.txt");
    expect(files).not.toContain(".cfa/turns");
    expect(runs.dispatched).toHaveLength(2);
    expect(asConversationModel(job.model).unplayed()).toEqual({});
  });

  it("task mode runs each task: its worker's turns in a fresh clone on its branch (code, transcript, a record per call and at the end, leased pushes), nothing else written; the lead's next wake folds both, verifies, merges — DONE", async () => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": worker("hello.txt"),
        "worker@dispatch:world": worker("world.txt"),
      }),
      config: PER_TASK,
    });
    const runs = recordedRuns((i) => ({ kind: "dispatched", runId: runOf(i.task) }));
    const deps = await dispatchedToRuns(job, runs.port);
    const jobHead = git(job.repoDir, "rev-parse", "cfa/1");
    const comments = (await job.forge.listComments(1)).length;

    const hello = await runTaskInItsRun(job, "hello", "901");
    const world = await runTaskInItsRun(job, "world", "902");
    expect(hello).toEqual({ stopped: null, turns: 1, done: true });
    expect(world).toEqual({ stopped: null, turns: 1, done: true });
    // The runs wrote their branches only: the job branch, the comments are as the lead left them.
    expect(git(job.repoDir, "rev-parse", "cfa/1")).toBe(jobHead);
    expect((await job.forge.listComments(1)).length).toBe(comments);
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1-hello");
    expect(files).toContain("hello.txt");
    expect(files).toContain(".cfa/turns/000001-e1.json");
    expect(files).toContain(".cfa/turns/transcript.jsonl");
    // One commit per model call's record (3 calls), then the code, then the ended record.
    const log = git(job.repoDir, "log", "--format=%s", "cfa/1-hello").split("\n");
    expect(log.filter((l) => l.includes("turn 1 call"))).toHaveLength(3);
    expect(log[0]).toContain("turn 1 ended (epoch 1)");
    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
    ) as { calls: number; done: boolean; sends: { to: string; text: string }[] };
    expect(record).toMatchObject({
      calls: 3,
      done: true,
      sends: [{ to: "project-lead@state:execute:1", text: "hello.txt written" }],
    });

    // No worker took a turn in the lead's run: the job's records know none of theirs yet.
    const hello1 = jobPaths(1).instance({ agent: "worker", thread: "dispatch:hello" });
    expect(fileOnBranch(job, hello1)).toBeNull();
    const pushed = Object.fromEntries(
      ["hello", "world"].map((t) => [
        t,
        git(job.repoDir, "show", `cfa/1-${t}:.cfa/turns/transcript.jsonl`),
      ]),
    );

    const atGate = await wake(1, deps);
    // The fold brought each worker's transcript into the job's records, byte for byte what
    // its run committed: `cfa inspect`/`show` read its turn as if it had run in the lead's run.
    for (const task of ["hello", "world"]) {
      const file = jobPaths(1).instance({ agent: "worker", thread: `dispatch:${task}` });
      expect(fileOnBranch(job, file)?.trim()).toBe(pushed[task]);
    }
    const view = readJobView((await readJobRecords(job.repoDir, 1))!);
    const helloView = view.instances.find((i) => i.key === "worker@dispatch:hello");
    expect(helloView?.turns).toHaveLength(1);
    expect(helloView?.turns[0]?.usage?.outputTokens).toBeGreaterThan(0);
    expect(helloView?.turns[0]?.toolUses.map((t) => t.name)).toContain("write_file");
    expect(view.problems).toEqual([]);
    await approvedToDone(job, deps, atGate);
    expect(git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1")).not.toContain(".cfa/turns");
    expect(runs.dispatched).toHaveLength(2);
    // DONE, the job's records still hold both workers' turns: `cfa inspect` lists each.
    const inspect = renderInspect(readJobView((await readJobRecords(job.repoDir, 1))!), {
      resolveModel: (m) => m,
      price: () => 0,
    }).join("\n");
    for (const task of ["hello", "world"]) {
      const file = jobPaths(1).instance({ agent: "worker", thread: `dispatch:${task}` });
      expect(fileOnBranch(job, file)?.trim()).toBe(pushed[task]);
      expect(inspect).toMatch(new RegExp(`worker@dispatch:${task}.*1 turn`));
    }
  });

  // A run that ends cleanly with no turn folded (its worker found no mail, say) counts as a
  // death too: without the count, every such run would be followed by another at each wake.
  it.each([
    {
      why: "a dead run (completed: nothing of it left to cancel, 0 cancels) is dispatched again once at epoch 2; when that one dies too the lead's run runs the task; the other task's run is folded meanwhile — DONE",
      first: "failure",
      second: "cancelled",
    },
    {
      why: "a run that ends cleanly with no turn folded counts as a death: dispatched again once at epoch 2, then the lead's run runs the task — 3 dispatches, not one per wake — DONE",
      first: "success",
      second: "success",
    },
  ] as const)("$why", async ({ first, second }) => {
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "project-lead@state:execute:1": EXECUTE_STEPS(true),
        "worker@dispatch:hello": worker("hello.txt"),
      }),
      config: PER_TASK,
    });
    let next = 900;
    const runs = recordedRuns(() => ({ kind: "dispatched", runId: String(++next) }));
    const deps = await dispatchedToRuns(job, runs.port); // hello in run 901, world in run 902

    await runTaskAsItsRun(job.repoDir, "world", "902", "world.txt");
    runs.ended.set("901", { status: "completed", conclusion: first });
    const summary = await wake(1, deps);
    expect(runs.cancelled).toEqual([]);
    expect(runs.dispatched.at(-1)).toEqual({ job: 1, task: "hello", epoch: 2 });
    expect(summary.waitingOn).toBe("the tasks' own runs: hello (run 903).");

    runs.ended.set("903", { status: "completed", conclusion: second });
    const atGate = await wake(1, deps);
    expect(runs.cancelled).toEqual([]);
    expect(runs.dispatched).toHaveLength(3);
    await approvedToDone(job, deps, atGate);
  });

  it("/withdraw while both tasks run in their own runs: both runs cancelled (2), both branches deleted — the one a run moved at what it holds — WITHDRAWN", async () => {
    const job = await newJob({ recording: happyRecording(), config: PER_TASK });
    const runs = recordedRuns((i) => ({ kind: "dispatched", runId: runOf(i.task) }));
    const deps = await dispatchedToRuns(job, runs.port);
    // hello's run pushed a turn's record before the withdrawal.
    await runTaskAsItsRun(job.repoDir, "hello", "901", "hello.txt");
    runs.ended.set("901", { status: "active" });
    await say(job, "/withdraw not needed");
    const summary = await wake(1, deps);
    expect(summary.state).toBe("WITHDRAWN");
    expect(runs.cancelled.sort()).toEqual(["901", "902"]);
    expect(git(job.repoDir, "branch", "--list", "cfa/1-*")).toBe("");
    expect(fileOnBranch(job, "hello.txt")).toBeNull();
  });

  it("a 403 on dispatch: the tasks run in the lead's run, the job ends DONE with both merged, said once in the status comment (1 dispatch)", async () => {
    const job = await newJob({ recording: happyRecording(), config: PER_TASK });
    const reason = "403: Resource not accessible by integration (the token lacks actions: write)";
    const runs = recordedRuns(() => ({ kind: "unavailable", reason }));
    const deps = { ...job.deps, taskRuns: runs.port };
    const summary = await approvedThroughEveryGate(job, deps);
    expect(summary.state).toBe("DONE");
    expect(runs.dispatched).toEqual([{ job: 1, task: "hello", epoch: 1 }]);
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).toContain("world.txt");
    const [status] = await commentsOfKind(job, "status");
    expect(status!.body.split(`tasks run in this run: ${reason}`)).toHaveLength(2);
    expect(asConversationModel(job.model).unplayed()).toEqual({});
  });

  it("a 403 on the second dispatch: the first task's run (901) is cancelled and the task taken over, so the lead never works a task while its run still pushes (1 cancel, said once); DONE with both merged", async () => {
    const job = await newJob({ recording: happyRecording(), config: PER_TASK });
    const reason = "403: Resource not accessible by integration";
    const runs = recordedRuns((i) =>
      i.task === "hello" ? { kind: "dispatched", runId: "901" } : { kind: "unavailable", reason },
    );
    const deps = { ...job.deps, taskRuns: runs.port };
    const summary = await approvedThroughEveryGate(job, deps);
    expect(summary.state).toBe("DONE");
    expect(runs.dispatched.map((d) => d.task)).toEqual(["hello", "world"]);
    expect(runs.cancelled).toEqual(["901"]);
    const said = job.lines.filter((l) => l.event === "TASK RUN").map((l) => l.detail);
    expect(said.filter((d) => d.startsWith("task hello runs in this run"))).toEqual([
      "task hello runs in this run: its run 901 cancelled",
    ]);
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).toContain("world.txt");
    expect(files).not.toContain(".cfa/turns");
    expect(asConversationModel(job.model).unplayed()).toEqual({});
  });

  it("auto (the default) with a TaskRuns port: nothing measured says a run of its own pays, so no task is dispatched (0 dispatches) and the job ends DONE in the lead's run", async () => {
    const job = await newJob({ recording: happyRecording() });
    const runs = recordedRuns(() => ({ kind: "dispatched", runId: "901" }));
    const deps = { ...job.deps, taskRuns: runs.port };
    const summary = await approvedThroughEveryGate(job, deps);
    expect(summary.state).toBe("DONE");
    expect(runs.dispatched).toEqual([]);
  });

  it("without a TaskRuns port (the local CLI), per-task runs every task in the lead's run and says nothing of runners", async () => {
    const job = await newJob({ recording: happyRecording(), config: PER_TASK });
    const summary = await approvedThroughEveryGate(job, job.deps);
    expect(summary.state).toBe("DONE");
    const [status] = await commentsOfKind(job, "status");
    expect(status!.body).not.toContain("tasks run in this run");
  });
});
