// Where a task the project lead dispatches runs (issue 15 point 6, `execute.runners`). Pure.
// `single`: in the lead's run. `per-task`: in its own workflow run. `auto`: in its own run
// only where that pays in wall time, by the break-even measured with `npm run bench --
// runners` (the simulation harness on a virtual clock, a runner's start-up taken as 90 s):
// - a task in its own run finishes AUTO.breakEvenMinutes (4.75) later than in the lead's run
//   when nothing competes: two start-ups (its run, then the lead's wake) and the lead's fold,
//   the same in every model-bound row (2×10, 6×30 min: 11.92 → 16.67, 32.58 → 37.33);
// - in the lead's run, tasks running at once share its 2 cores: each command-heavy task's
//   commands take as many times longer as there are tasks running commands, which costs
//   (tasks − 1) × command share × task minutes of wall time (the rows match it exactly:
//   command-heavy 2×10 min at 70% commands, 18.92 against 11.92 model-bound);
// - so a task gets its own run when (concurrent − 1) × commandShare × expectedMinutes passes
//   the break-even — command-heavy 2×10 min and 6×2 min do (0.88 and 0.81 of single's wall
//   time), 4×2 min and any model-bound task do not (1.07; 1.10–2.21);
// - and whatever the task, when the lead's run has less time left than the task is expected
//   to take, it goes to a run of its own rather than be stopped at the margin and redone.
// A run of its own always bills more minutes (each run is billed by the minute, start-up
// included): 1.3–1.7× in the command-heavy rows where it pays, up to 6× for short model-bound
// tasks — which is why `auto` never fans out for those.

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

/** `auto`'s threshold: the wall time a run of its own adds (`npm run bench -- runners`). */
export const AUTO = { breakEvenMinutes: 4.75 } as const;

/** Wall time a task saves in a run of its own: the contention it escapes in the lead's run. */
export function contentionMinutes(input: RunnerChoiceInput): number {
  return Math.max(0, input.concurrent - 1) * input.commandShare * input.expectedMinutes;
}

export type RunnerChoice = "lead" | "own-run";

export function chooseRunner(input: RunnerChoiceInput): RunnerChoice {
  switch (input.mode) {
    case "single":
      return "lead";
    case "per-task":
      return "own-run";
    case "auto": {
      if (input.expectedMinutes > input.leadMinutesLeft) return "own-run";
      return contentionMinutes(input) > AUTO.breakEvenMinutes ? "own-run" : "lead";
    }
    default: {
      const never: never = input.mode;
      return never;
    }
  }
}
