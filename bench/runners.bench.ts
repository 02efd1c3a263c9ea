// `npm run bench -- runners` (issue 15 point 6): wall time and billed runner minutes of a job's
// EXECUTE with its tasks in the lead's run (`single`) against each task in its own run
// (`per-task`), for 1–6 tasks of 2–30 minutes, model-bound against command-heavy. Measured on
// the simulation harness (test/support/sim): the real fold, leases and git, on a virtual clock,
// with no faults. Its model:
// - a task is turns of about 10 minutes; model-bound: all of it model calls; command-heavy:
//   30% model calls, 70% commands that want the runner's 2 cores (a test suite), so commands
//   running at once on one runner share them (each takes as many times longer as there are);
// - a runner's start-up: RUNNER_STARTUP_S from assignment to the worker's first step —
//   checkout with full history, setup-node, apt-get bubblewrap (templates/workflows/cfa.yml);
//   queueing for a GitHub-hosted runner is seconds at the median and about a minute at the
//   90th percentile in third-party measurements, and is not billed
//   (https://docs.github.com/actions/monitoring-and-troubleshooting-workflows/viewing-job-execution-time:
//   billable minutes are each job's, rounded up to the next minute);
// - the lead's run folds each task's records and merges it (10 s each) and ends when only
//   task runs are left; each task run's last step wakes it (a new run, a new start-up).
// The break-even of these rows sets choose-runner.ts's thresholds.

import { runTrial, type TrialFaults } from "../test/support/sim/run-trial.js";
import type { Scenario, TaskScript } from "../test/support/sim/sim-job.js";
import type { BenchResult } from "./bench-result.js";

const MINUTE = 60_000;
/** Seconds from a runner's assignment to the worker's first step (see above). */
export const RUNNER_STARTUP_S = 90;

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

function tasks(n: number, minutes: number, kind: "model" | "commands"): TaskScript[] {
  const turns = Math.max(1, Math.round(minutes / 10));
  const turnMs = (minutes * MINUTE) / turns;
  return Array.from({ length: n }, (_, i) =>
    kind === "model"
      ? { id: `t${i + 1}`, turns, callsPerTurn: 2, callMs: turnMs / 2, commandMs: 0 }
      : { id: `t${i + 1}`, turns, callsPerTurn: 1, callMs: 0.3 * turnMs, commandMs: 0.7 * turnMs },
  );
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
  return { wall: r.wallMinutes, billed };
}

export async function run(): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  for (const kind of ["model", "commands"] as const) {
    for (const minutes of [2, 10, 30]) {
      for (const n of [1, 2, 3, 4, 6]) {
        const list = tasks(n, minutes, kind);
        const single = await measure("single", list);
        const perTask = await measure("per-task", list);
        rows.push({
          name: `${kind === "model" ? "model-bound" : "command-heavy"} ${n}×${minutes} min: per-task wall / single`,
          unit: "ratio",
          median: perTask.wall / single.wall,
          runs: 1,
          extra: {
            singleWall: single.wall,
            perTaskWall: perTask.wall,
            singleBilled: single.billed,
            perTaskBilled: perTask.billed,
            billedRatio: perTask.billed / single.billed,
          },
        });
      }
    }
  }
  return rows;
}
