// Where a task runs (`execute.runners`: the lead's run, or a workflow run of its own): `auto`
// against every row of the table `npm run bench -- runners` measured (README: the fan-out's
// numbers), written out here — it fans out exactly where a run of its own took less wall time
// than the lead's run.

import { describe, expect, it } from "vitest";
import {
  chooseRunner,
  type RunnerChoiceInput,
} from "../../../../src/engine/fanout/choose-runner.js";

/** kind, tasks, minutes each, per-task wall time / single wall time (measured). */
const MEASURED: ["model" | "commands", number, number, number][] = [
  ["model", 1, 2, 1.84],
  ["model", 2, 2, 2.21],
  ["model", 6, 2, 2.04],
  ["model", 2, 10, 1.4],
  ["model", 6, 10, 1.38],
  ["model", 1, 30, 1.1],
  ["model", 6, 30, 1.15],
  ["commands", 1, 2, 1.84],
  ["commands", 2, 2, 1.63],
  ["commands", 3, 2, 1.28],
  ["commands", 4, 2, 1.07],
  ["commands", 6, 2, 0.81],
  ["commands", 1, 10, 1.27],
  ["commands", 2, 10, 0.88],
  ["commands", 3, 10, 0.65],
  ["commands", 6, 10, 0.36],
  ["commands", 1, 30, 1.1],
  ["commands", 2, 30, 0.69],
  ["commands", 6, 30, 0.27],
];

const input = (kind: "model" | "commands", n: number, minutes: number): RunnerChoiceInput => ({
  mode: "auto",
  concurrent: n,
  commandShare: kind === "commands" ? 0.7 : 0,
  expectedMinutes: minutes,
  leadMinutesLeft: 320,
});

describe("choosing a task's runner", () => {
  it.each(MEASURED)(
    "auto, %s-bound %i × %i min (measured %f): its own run only if that was faster",
    (kind, n, minutes, ratio) => {
      expect(chooseRunner(input(kind, n, minutes))).toBe(ratio < 1 ? "own-run" : "lead");
    },
  );

  it("single and per-task decide alone", () => {
    expect(chooseRunner({ ...input("commands", 6, 30), mode: "single", leadMinutesLeft: 1 })).toBe(
      "lead",
    );
    expect(chooseRunner({ ...input("model", 1, 2), mode: "per-task" })).toBe("own-run");
  });

  it("auto: a task the lead's run has no time left for gets its own run, whatever it is", () => {
    expect(chooseRunner({ ...input("model", 1, 40), leadMinutesLeft: 30 })).toBe("own-run");
  });
});
