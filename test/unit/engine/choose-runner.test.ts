// Where a task runs (issue 15 point 6, `execute.runners`): `auto`'s thresholds are the
// break-even of `npm run bench -- runners` (choose-runner.ts says which rows).

import { describe, expect, it } from "vitest";
import {
  AUTO,
  chooseRunner,
  type RunnerChoiceInput,
} from "../../../src/engine/fanout/choose-runner.js";

const base: RunnerChoiceInput = {
  mode: "auto",
  concurrent: 3,
  commandShare: 0.7,
  expectedMinutes: 30,
  leadMinutesLeft: 300,
};

describe("choosing a task's runner", () => {
  it("single and per-task decide alone", () => {
    expect(chooseRunner({ ...base, mode: "single", leadMinutesLeft: 1 })).toBe("lead");
    expect(chooseRunner({ ...base, mode: "per-task", commandShare: 0, concurrent: 1 })).toBe(
      "own-run",
    );
  });

  it("auto: command-heavy tasks running together and long enough get their own runs", () => {
    expect(chooseRunner(base)).toBe("own-run");
    expect(chooseRunner({ ...base, expectedMinutes: AUTO.minMinutes })).toBe("own-run");
  });

  it("auto: model-bound, alone or short tasks stay in the lead's run", () => {
    expect(chooseRunner({ ...base, commandShare: 0 })).toBe("lead");
    expect(chooseRunner({ ...base, concurrent: 1 })).toBe("lead");
    expect(chooseRunner({ ...base, expectedMinutes: AUTO.minMinutes - 1 })).toBe("lead");
  });

  it("auto: a task the lead's run has no time left for gets its own run, whatever it is", () => {
    expect(
      chooseRunner({
        ...base,
        commandShare: 0,
        concurrent: 1,
        expectedMinutes: 40,
        leadMinutesLeft: 30,
      }),
    ).toBe("own-run");
  });
});
