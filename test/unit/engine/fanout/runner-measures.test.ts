// What `execute.runners: auto` decides on (whether a task gets a workflow run of its own),
// read from the job's measured records: the command share of task turns, the mean task time,
// the lead run's time left.

import { describe, expect, it } from "vitest";
import {
  DEFAULT_TASK_MINUTES,
  commandShare,
  expectedTaskMinutes,
  leadMinutesLeft,
} from "../../../../src/engine/fanout/runner-measures.js";
import { chooseRunner } from "../../../../src/engine/fanout/choose-runner.js";

const measured = (m: Partial<NonNullable<Parameters<typeof commandShare>[0]["measured"]>>) => ({
  measured: { turns: 0, turnMs: 0, commandMs: 0, tasks: 0, taskMs: 0, ...m },
});

describe("commandShare: the task turns' time in commands", () => {
  it("is 0 before any task turn was measured (no record, or no time)", () => {
    expect(commandShare({})).toBe(0);
    expect(commandShare(measured({ turns: 1 }))).toBe(0);
  });

  it("is the commands' time over the turns' time: 7 of 10 minutes → 0.7", () => {
    expect(commandShare(measured({ turns: 2, turnMs: 600_000, commandMs: 420_000 }))).toBeCloseTo(
      0.7,
    );
  });

  it("never leaves 0–1, whatever the records hold", () => {
    expect(commandShare(measured({ turns: 1, turnMs: 1000, commandMs: 5000 }))).toBe(1);
  });
});

describe("expectedTaskMinutes: the mean of the job's ended tasks", () => {
  it("is the default (10 minutes) until a task ended, or the fallback given", () => {
    expect(expectedTaskMinutes({})).toBe(DEFAULT_TASK_MINUTES);
    expect(expectedTaskMinutes(measured({ turns: 4, turnMs: 1000 }), 7)).toBe(7);
  });

  it("is the mean once tasks ended: 12 and 6 minutes → 9", () => {
    expect(expectedTaskMinutes(measured({ tasks: 2, taskMs: 18 * 60_000 }))).toBe(9);
  });
});

describe("leadMinutesLeft: until the lead run's clean stop", () => {
  const t0 = Date.parse("2026-11-26T10:00:00Z");

  it("is infinite without a stop (a local run)", () => {
    expect(leadMinutesLeft(null, t0)).toBe(Number.POSITIVE_INFINITY);
  });

  it("counts down to the stop, and is 0 past it", () => {
    expect(leadMinutesLeft(t0 + 25 * 60_000, t0)).toBe(25);
    expect(leadMinutesLeft(t0 - 60_000, t0)).toBe(0);
  });
});

describe("the measures fed to chooseRunner (auto)", () => {
  const choose = (
    engine: Parameters<typeof commandShare>[0],
    concurrent: number,
    left = Number.POSITIVE_INFINITY,
  ) =>
    chooseRunner({
      mode: "auto",
      concurrent,
      commandShare: commandShare(engine),
      expectedMinutes: expectedTaskMinutes(engine),
      leadMinutesLeft: left,
    });

  it("command-heavy turns (80%), a second task at once, the default 10 minutes: own run; model-bound (5%): the lead's", () => {
    expect(choose(measured({ turns: 3, turnMs: 100, commandMs: 80 }), 2)).toBe("own-run");
    expect(choose(measured({ turns: 3, turnMs: 100, commandMs: 5 }), 2)).toBe("lead");
  });

  it("command-heavy but the job's tasks took 3 minutes each: below the break-even, the lead's run", () => {
    const engine = measured({ turns: 3, turnMs: 100, commandMs: 80, tasks: 2, taskMs: 6 * 60_000 });
    expect(choose(engine, 2)).toBe("lead");
  });

  it("a model-bound task expected to outlast the lead run's time left: own run", () => {
    const engine = measured({ tasks: 1, taskMs: 30 * 60_000 });
    expect(choose(engine, 1, 20)).toBe("own-run");
    expect(choose(engine, 1, 40)).toBe("lead");
  });
});
