// Where a task the project lead dispatches runs (issue 15 point 6, `execute.runners`). Pure.
// `single`: in the lead's run. `per-task`: in its own workflow run. `auto`: in its own run
// only where that pays, by thresholds measured with `npm run bench -- runners` (the
// simulation harness on a virtual clock, a runner's start-up at 90 s):
// - model-bound tasks never pay: they share one runner without contention (model calls wait
//   on the network), while a run of their own adds two start-ups to the wall time (the task's
//   run, then the lead's wake) and bills each run's minutes separately;
// - command-heavy tasks (commands 70% of a turn, each wanting the runner's 2 cores) pay in
//   wall time as soon as two or more would run at once and each lasts AUTO.minMinutes or more:
//   on one runner their commands take turns on the cores; billed minutes still grow (each run
//   is billed by the minute, start-up included), which is the price of the wall time;
// - whatever the task, when the lead's run has less time left than the task is expected to
//   take, the task goes to a run of its own rather than be stopped at the margin and redone.

import type { RunnerMode } from "../../config/index.js";

export interface RunnerChoiceInput {
  mode: RunnerMode;
  /** Tasks that would run at once in the lead's run, this one included. */
  concurrent: number;
  /** The share of a turn's time its commands took in this job so far (0 when unknown). */
  commandShare: number;
  /** Minutes the task is expected to take (the job's finished tasks so far, or a default). */
  expectedMinutes: number;
  /** Minutes left in the lead's run before its stop margin. */
  leadMinutesLeft: number;
}

/** `auto`'s thresholds, from the break-even of `npm run bench -- runners`. */
export const AUTO = {
  minConcurrent: 2,
  minCommandShare: 0.5,
  minMinutes: 10,
} as const;

export type RunnerChoice = "lead" | "own-run";

export function chooseRunner(input: RunnerChoiceInput): RunnerChoice {
  switch (input.mode) {
    case "single":
      return "lead";
    case "per-task":
      return "own-run";
    case "auto": {
      if (input.expectedMinutes > input.leadMinutesLeft) return "own-run";
      const contended =
        input.concurrent >= AUTO.minConcurrent && input.commandShare >= AUTO.minCommandShare;
      return contended && input.expectedMinutes >= AUTO.minMinutes ? "own-run" : "lead";
    }
    default: {
      const never: never = input.mode;
      return never;
    }
  }
}
