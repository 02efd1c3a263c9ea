// `npm run bench -- runners`: EXECUTE's wall time for the same three-task job run three ways in
// one run — every task in the lead's run (`single`), each in a run of its own (`per-task`), and
// `auto` — against the longest task (its own work plus one runner's start-up, the least any
// way of running it can take). Measured on the simulation harness (test/support/sim): the real
// fold, leases and git, the real run watch and runner choice, on a virtual clock, no faults.
// Its model of a job:
// - a task is turns; each turn makes model calls whose latency is drawn per call, 2–20 s
//   (uniform, seeded: the same draws for each way of running the job), and runs commands that
//   want the runner's 2 cores (a build, a test suite): commands running at once on one runner
//   share them, each taking as many times longer as there are;
// - model-bound tasks run no command; command-heavy ones spend most of each turn in commands;
// - a runner's start-up: RUNNER_STARTUP_S from assignment to the worker's first step —
//   checkout with full history, setup-node, apt-get bubblewrap (templates/workflows/cfa.yml);
//   queueing for a GitHub-hosted runner is seconds at the median and about a minute at the
//   90th percentile in third-party measurements, and is not billed
//   (https://docs.github.com/actions/monitoring-and-troubleshooting-workflows/viewing-job-execution-time:
//   billable minutes are each job's, rounded up to the next minute);
// - EXECUTE starts when the lead's run is dispatched (the plan's approval) and ends when the
//   last run ends (the lead's, having merged every task). With `per-task` the lead's run
//   dispatches the tasks and ends (it lets go of its runner); each task run's last step wakes
//   it again (a new run, a new start-up), and that run folds (10 s a task) and merges.
// `auto` weighs the same measure (choose-runner.ts): a run of its own adds
// `AUTO.breakEvenMinutes` of wall time when nothing competes — the model-bound rows' per-task
// minus single — and pays when the contention it escapes is larger.

import { runTrial, type TrialFaults } from "../test/support/sim/run-trial.js";
import type { Scenario, TaskScript } from "../test/support/sim/sim-job.js";
import { AUTO } from "../src/engine/fanout/choose-runner.js";
import type { BenchResult } from "./bench-result.js";

const MINUTE = 60_000;
/** Seconds from a runner's assignment to the worker's first step (see above). */
export const RUNNER_STARTUP_S = 90;
/** A model call's latency, drawn per call (ms). */
const CALL_MS: readonly [number, number] = [2_000, 20_000];

const NO_FAULTS: TrialFaults = {
  kill: 0,
  loseRunner: 0,
  lostWake: 0,
  duplicateWake: 0,
  lostAnswer: 0,
  killMidPush: 0,
  withdraw: false,
  noTaskJob: false,
};

/**
 * Three tasks of `turns` turns each (± a turn, so they end apart), two calls a turn;
 * command-heavy turns run `commandS` seconds of commands.
 */
function threeTasks(turns: number, commandS: number): TaskScript[] {
  return [turns - 1, turns, turns + 1].map((n, i) => ({
    id: `t${i + 1}`,
    turns: Math.max(1, n),
    callsPerTurn: 2,
    callMs: CALL_MS,
    commandMs: commandS * 1000,
  }));
}

async function measure(mode: Scenario["mode"], list: TaskScript[]) {
  const scenario: Scenario = {
    tasks: list,
    mode,
    callUsd: 0.1,
    allowanceUsd: 1000,
    stopMarginMs: 20 * MINUTE,
    leadTimeLimitMs: 340 * MINUTE,
    taskTimeLimitMs: 340 * MINUTE,
    foldMs: 10_000,
  };
  const r = await runTrial(1, scenario, NO_FAULTS, { startupMs: RUNNER_STARTUP_S * 1000 });
  if (r.violations.length > 0)
    throw new Error(`bench trial broke an invariant: ${r.violations.join("; ")}`);
  const billed = Object.values(r.billed).reduce((a, b) => a + b, 0);
  return { wall: r.wallMinutes, billed, spans: r.spans };
}

const JOBS: { name: string; turns: number; commandS: number }[] = [
  { name: "model-bound, ~3 min tasks", turns: 8, commandS: 0 },
  { name: "model-bound, ~10 min tasks", turns: 27, commandS: 0 },
  { name: "command-heavy, ~4 min tasks", turns: 3, commandS: 60 },
  { name: "command-heavy, ~11 min tasks", turns: 8, commandS: 60 },
  { name: "command-heavy, ~20 min tasks", turns: 12, commandS: 80 },
];

export async function run(): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  for (const job of JOBS) {
    const list = threeTasks(job.turns, job.commandS);
    const single = await measure("single", list);
    const perTask = await measure("per-task", list);
    const auto = await measure("auto", list);
    // Each task alone on its runner: its turns' time in its own run (per-task, no faults:
    // one run each, nothing contended), plus the start-up every way of running it pays once.
    const longest = RUNNER_STARTUP_S / 60 + Math.max(...perTask.spans.map((s) => s.minutes));
    rows.push({
      name: `${job.name}: per-task EXECUTE / longest task (with start-up)`,
      unit: "ratio",
      median: perTask.wall / longest,
      runs: 1,
      extra: {
        longestTaskMin: longest,
        singleMin: single.wall,
        perTaskMin: perTask.wall,
        autoMin: auto.wall,
        singleRatio: single.wall / longest,
        perTaskOverSingle: perTask.wall / single.wall,
        singleBilled: single.billed,
        perTaskBilled: perTask.billed,
      },
    });
  }
  // What a run of its own adds when nothing competes: model-bound per-task minus single.
  const modelBound = rows.filter((r) => r.name.startsWith("model-bound"));
  const added = modelBound.map(
    (r) => (r.extra!["perTaskMin"] as number) - (r.extra!["singleMin"] as number),
  );
  rows.push({
    name: "a run of its own adds, nothing competing (model-bound per-task − single)",
    unit: "min",
    median: added.reduce((a, b) => a + b, 0) / added.length,
    runs: added.length,
    extra: { autoBreakEvenMinutes: AUTO.breakEvenMinutes },
  });
  return rows;
}
