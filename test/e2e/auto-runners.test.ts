// `execute.runners: auto` (the default) on what the job measured: the engine
// times each task turn and the commands in it (its monotonic clock, around the real bwrap
// sandbox), each task start to end, and knows when the lead's run stops; `chooseRunner` then
// sends a task to a run of its own only where that pays (choose-runner.ts, `npm run bench --
// runners`). Time here is virtual: each model call takes a minute and each command as long as
// the scenario says, so a 12-minute task is measured in a second. The TaskRuns port is the
// engine's own interface answered in the test, as in task-runs.test.ts.

import { AUTO } from "../../src/engine/fanout/choose-runner.js";
import { describe, expect, it } from "vitest";
import { wake, type EngineDeps } from "../../src/engine/index.js";
import type { TaskRuns, TaskRunInputs } from "../../src/ports/task-runs.js";
import type { Model } from "../../src/ports/model.js";
import type { LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { leadUpToDispatch, runTaskInItsRun } from "../support/engine/task-run-pushes.js";
import { git } from "../support/engine/local-job.js";
import { INTENT_STEPS, PLAN_STEPS, pass, worker, summedUp } from "../support/engine/recordings.js";
import { call, recording, say, tools, type ScriptStep } from "../support/engine/script.js";
import { fileOnBranch } from "../support/engine/inspect.js";
import { jobPaths } from "../../src/records/job-paths.js";

const MINUTE = 60_000;

/**
 * INTENT and PLAN approved; EXECUTE's lead first dispatches hello alone, whose worker writes
 * its file and runs one command (the rest is the model's), then goes on with `then`. Every
 * other task in `others` has a worker writing `<id>.txt`; every task passes its verifier.
 */
function helloFirst(then: ScriptStep[], others: string[]) {
  const each = (id: string, steps: ScriptStep[]) => [id, steps] as const;
  return recording({
    "intent-lead@state:intent:1": INTENT_STEPS(),
    "project-lead@state:plan:1": PLAN_STEPS(),
    "project-lead@state:execute:1": [
      tools(call("dispatch", { id: "hello", brief: "Create hello.txt and test it", files: [] })),
      say("Dispatched hello."),
      ...then,
    ],
    "worker@dispatch:hello": [
      tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
      tools(call("run_command", { argv: ["cat", "hello.txt"] })),
      tools(call("reply", { text: "hello.txt written and checked" })),
      say("done"),
    ],
    ...Object.fromEntries(others.map((id) => each(`worker@dispatch:${id}`, worker(`${id}.txt`)))),
    ...Object.fromEntries(
      ["hello", ...others].map((id) => each(`verifier@verify:${id}-1`, pass())),
    ),
  });
}

/**
 * EXECUTE: hello dispatched alone; once its worker replied (hello still open), world. With
 * world in the lead's run the job goes on to its last gate.
 */
const helloThenWorld = () =>
  helloFirst(
    [
      tools(call("dispatch", { id: "world", brief: "Create world.txt", files: [] })),
      say("Dispatched world."),
      tools(call("close", { task: "hello" })),
      tools(call("close", { task: "world" })),
      ...summedUp("Both files exist."),
    ],
    ["world"],
  );

/**
 * The job's deps on a virtual clock: every model call takes `callMinutes` (1) and every
 * command `commandMinutes`, on the monotonic clock the engine times turns and commands by —
 * and, with `engineClock`, on the clock its records read too (a task's start and end). The
 * command itself runs in the real sandbox.
 */
function onVirtualTime(
  deps: EngineDeps,
  commandMinutes: number,
  options: { callMinutes?: number; engineClock?: boolean } = {},
): void {
  let t = 0;
  const model = deps.model;
  const timed: Model = {
    complete: async (request, o) => {
      const response = await model.complete(request, o);
      t += (options.callMinutes ?? 1) * MINUTE;
      return response;
    },
    ...(model.limits ? { limits: (name: string) => model.limits!(name) } : {}),
  };
  const sandbox = deps.sandbox;
  deps.model = timed;
  deps.monotonic = () => t;
  if (options.engineClock === true) {
    // A millisecond per reading keeps the records' times apart, as the stepping clock does.
    const start = deps.clock.now().getTime();
    let reads = 0;
    deps.clock = { now: () => new Date(start + t + reads++) };
  }
  deps.sandbox = async (mode) => {
    const real = await sandbox(mode);
    return {
      kind: real.kind,
      start: (request) => real.start(request),
      run: async (request, options) => {
        const result = await real.run(request, options);
        t += commandMinutes * MINUTE;
        return result;
      },
    };
  };
}

function taskRuns() {
  const dispatched: TaskRunInputs[] = [];
  const port: TaskRuns = {
    dispatch: async (inputs) => {
      dispatched.push(inputs);
      return { kind: "dispatched", runId: String(900 + dispatched.length) };
    },
    state: async () => ({ status: "active" }),
    cancel: async () => {},
  };
  return { port, dispatched };
}

interface Measured {
  turns: number;
  turnMs: number;
  commandMs: number;
  tasks: number;
  taskMs: number;
}

function measured(job: LocalJob): Measured | undefined {
  const state = JSON.parse(fileOnBranch(job, jobPaths(1).state)!) as {
    engine: { measured?: Measured };
  };
  return state.engine.measured;
}

/** INTENT and PLAN approved with the TaskRuns port; the EXECUTE wake is the test's. */
async function upToExecute(
  job: LocalJob,
  commandMinutes: number,
  options?: Parameters<typeof onVirtualTime>[2],
) {
  onVirtualTime(job.deps, commandMinutes, options);
  const runs = taskRuns();
  const deps: EngineDeps = await leadUpToDispatch(job, runs.port);
  return { runs, deps };
}

/**
 * EXECUTE: hello dispatched alone and closed once it replied; then world and again at once
 * (again is the second task open: 2 at once). The lead waits for both replies, whichever
 * order they come in (a nudge carries it on when both came in one turn).
 */
const helloClosedThenTwo = () =>
  helloFirst(
    [
      tools(call("close", { task: "hello" })),
      tools(
        call("dispatch", { id: "world", brief: "Create world.txt", files: [] }),
        call("dispatch", { id: "again", brief: "Create again.txt", files: [] }),
      ),
      say("Dispatched world and again."),
      say("Waiting for the other task."),
      tools(call("close", { task: "world" })),
      tools(call("close", { task: "again" })),
      ...summedUp("All three files exist."),
    ],
    ["world", "again"],
  );

describe("execute.runners: auto on what the job measured", () => {
  const newJob = useLocalJobs();

  it("command-heavy: hello's turn spent 8 of 12 minutes in its command, so world (2 tasks open, 10 minutes expected) goes to a run of its own (1 dispatch: world), decided by the next process from what state.json kept", async () => {
    const job = await newJob({ recording: helloThenWorld() });
    const { runs, deps } = await upToExecute(job, 8);
    // PLAN's last turn, the lead's dispatch and hello's turn; then the process ends.
    await wake(1, deps, { maxTurns: 3 });
    expect(runs.dispatched).toEqual([]);
    // What the engine measured, in state.json: hello's one turn, four model calls and one
    // command (8 minutes) — a share of 8/12, times 10 minutes: past the break-even (AUTO.breakEvenMinutes).
    const m = measured(job)!;
    expect(m).toEqual({
      turns: 1,
      turnMs: 12 * MINUTE,
      commandMs: 8 * MINUTE,
      tasks: 0,
      taskMs: 0,
    });

    const next = { ...(await job.reopen()), taskRuns: runs.port };
    onVirtualTime(next, 8);
    const summary = await wake(1, next);
    expect(runs.dispatched).toEqual([{ job: 1, task: "world", epoch: 1 }]);
    expect(summary.waitingOn).toContain("the tasks' own runs: world (run 901)");
    // The live log says why, from the measures.
    expect(job.lines.filter((l) => l.event === "TASK RUN").map((l) => l.detail)).toEqual([
      "task world runs in run 901 (auto: 67% of task turns in commands, 10 min expected, 2 tasks at once)",
    ]);
  });

  it("model-bound: the same job with a command of 6 seconds keeps world in the lead's run (0 dispatches), which goes on to merge both and ask for review", async () => {
    const job = await newJob({ recording: helloThenWorld() });
    const { runs, deps } = await upToExecute(job, 0.1);
    // Plenty of time left in the lead's run: that alone does not fan out.
    const summary = await wake(1, deps, { stopAt: deps.clock.now().getTime() + 300 * MINUTE });

    expect(runs.dispatched).toEqual([]);
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");
    const m = measured(job)!;
    expect(m.commandMs / m.turnMs).toBeLessThan(0.05);
    // Both tasks ended, each measured start to end.
    expect(m.tasks).toBe(2);
    expect(fileOnBranch(job, "hello.txt")?.trim()).toBe("hello");
    expect(fileOnBranch(job, "world.txt")?.trim()).toBe("world.txt");
  });

  it("a command-heavy task that took 2 minutes start to merge: the next two tasks at once stay in the lead's run (0 dispatches), where the default 10 minutes would have sent the second to its own", async () => {
    const job = await newJob({ recording: helloClosedThenTwo() });
    // Model calls of 6 seconds, hello's command 90 seconds: 1.9 minutes of turn, 79% commands.
    const { runs, deps } = await upToExecute(job, 1.5, { callMinutes: 0.1, engineClock: true });
    // PLAN's last turn, the lead's dispatch and hello's turn: what the decision will weigh.
    await wake(1, deps, { maxTurns: 3 });
    const before = measured(job)!;
    expect(before).toMatchObject({ turns: 1, tasks: 0 });
    const share = before.commandMs / before.turnMs;
    expect(share).toBeCloseTo(1.5 / 1.9, 5);
    // The control: over the default 10 minutes this share passes the break-even for the
    // second of two tasks at once.
    expect(share * 10).toBeGreaterThan(AUTO.breakEvenMinutes);

    const summary = await wake(1, deps);
    expect(runs.dispatched).toEqual([]);
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");
    // All three ended and were measured; hello ended first — its worker's turn, the lead's
    // close and the verifier's call — before world and again started: its start-to-merge
    // time, the only one measured when again was dispatched, is within the gap between starts.
    expect(measured(job)!.tasks).toBe(3);
    const state = JSON.parse(fileOnBranch(job, jobPaths(1).state)!) as {
      engine: { tasks: Record<string, { startedAt: string }> };
    };
    const helloStart = Date.parse(state.engine.tasks.hello!.startedAt);
    const worldStart = Date.parse(state.engine.tasks.world!.startedAt);
    expect(worldStart - helloStart).toBeGreaterThan(1.9 * MINUTE);
    expect(worldStart - helloStart).toBeLessThan(4.75 * MINUTE);
  });

  it("the lead's run short of time: 5 minutes left against a task expected to take 10, so even a model-bound job's first task goes to a run of its own (1 dispatch: hello)", async () => {
    const job = await newJob({ recording: helloThenWorld() });
    const { runs, deps } = await upToExecute(job, 0.1);
    const summary = await wake(1, deps, { stopAt: deps.clock.now().getTime() + 5 * MINUTE });

    expect(runs.dispatched).toEqual([{ job: 1, task: "hello", epoch: 1 }]);
    expect(summary.waitingOn).toContain("the tasks' own runs: hello (run 901)");
    expect(job.lines.find((l) => l.event === "TASK RUN")?.detail).toMatch(
      /^task hello runs in run 901 \(auto: 10 min expected, [0-5](\.\d)? min left in this run\)$/,
    );
    // Nothing of hello ran here, so nothing was measured.
    expect(measured(job)).toBeUndefined();
  });

  it("a task run's turn is measured too: hello, sent to its own run for want of time, spends 8 of its 12 minutes in its command there; the lead's fold adds that once, and world (2 tasks open) goes to a run of its own on it (2 dispatches)", async () => {
    const job = await newJob({ recording: helloThenWorld() });
    const { runs, deps } = await upToExecute(job, 8);
    await wake(1, deps, { stopAt: deps.clock.now().getTime() + 5 * MINUTE });
    expect(runs.dispatched).toEqual([{ job: 1, task: "hello", epoch: 1 }]);
    expect(measured(job)).toBeUndefined();

    // Task mode on the same virtual clock: four model calls and one command of 8 minutes.
    expect(await runTaskInItsRun(job, "hello", "901")).toMatchObject({ turns: 1, done: true });
    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
    ) as { timing?: { turnMs: number; commandMs: number } };
    expect(record.timing).toEqual({ turnMs: 12 * MINUTE, commandMs: 8 * MINUTE });

    const summary = await wake(1, deps, { stopAt: deps.clock.now().getTime() + 300 * MINUTE });
    expect(measured(job)).toMatchObject({ turns: 1, turnMs: 12 * MINUTE, commandMs: 8 * MINUTE });
    expect(runs.dispatched).toEqual([
      { job: 1, task: "hello", epoch: 1 },
      { job: 1, task: "world", epoch: 1 },
    ]);
    expect(summary.waitingOn).toContain("the tasks' own runs: world (run 902)");
    expect(job.lines.filter((l) => l.event === "TASK RUN").map((l) => l.detail)).toContain(
      "task world runs in run 902 (auto: 67% of task turns in commands, 10 min expected, 2 tasks at once)",
    );
    // A later wake measures nothing of it again.
    await wake(1, deps, { stopAt: deps.clock.now().getTime() + 300 * MINUTE });
    expect(measured(job)).toMatchObject({ turns: 1, turnMs: 12 * MINUTE });
  });
});
