// Where a task the project lead dispatches runs (`execute.runners`). Pure.
// `single`: in the lead's run. `per-task`: in its own workflow run. `auto`: in its own run
// only where that pays in wall time, by what `npm run bench -- runners` measures (the
// simulation harness on a virtual clock: model calls of 2–20 s drawn per call, a runner's
// start-up taken as 90 s, the same three-task job run `single`, `per-task` and `auto`):
// - a task in its own run finishes AUTO.breakEvenMinutes later than in the lead's run when
//   nothing competes: two start-ups (its run, then the lead's wake) and the lead's fold —
//   model-bound per-task minus single, 4.45 and 3.99 min for three tasks of ~3 and ~10 min
//   (4.22 on average);
// - in the lead's run, tasks running at once share its 2 cores: each command-heavy task's
//   commands take as many times longer as there are tasks running commands, which costs
//   (tasks − 1) × command share × task minutes of wall time;
// - so a task gets its own run when (concurrent − 1) × commandShare × expectedMinutes passes
//   the break-even: three command-heavy tasks of ~11 and ~20 min take 0.60 and 0.52 of
//   single's EXECUTE in runs of their own, 1.28 and 1.21 × the longest task with its
//   start-up; of ~4 min, 0.95 of single's (auto, fanning out where contention passes the
//   break-even, 0.87); model-bound tasks never pay (1.32–1.81 × single's), and `auto` keeps
//   them in the lead's run;
// - and whatever the task, when the lead's run has less time left than the task is expected
//   to take, it goes to a run of its own rather than be stopped at the margin and redone.
// A run of its own always bills more minutes (each run is billed by the minute, start-up
// included): 1.4–2.1× in the command-heavy rows, up to 4× for short model-bound tasks.

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
export const AUTO = { breakEvenMinutes: 4.25 } as const;

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
