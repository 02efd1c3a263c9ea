// Failure accounting (seed 000 §3 FAILURE, §12 "Termination guaranteed"; seed 001 CO-3):
// a state's retry budget and the job's caps turn a stuck job into FAILURE, naming why.

import { describe, expect, it } from "vitest";
import { InvalidTransitionError } from "../../../src/protocol/errors.js";
import {
  CAP_NAMES,
  DEFAULT_CAPS,
  DEFAULT_RETRY_BUDGET,
  breachedCap,
  describeBreach,
  enforceCaps,
  recordStateFailure,
  type Caps,
} from "../../../src/protocol/failure.js";
import { transition } from "../../../src/protocol/transition.js";
import { LIVE_STATES, TERMINAL_STATES } from "../../../src/protocol/fsm.js";
import { deepFreeze, givenJob, meta } from "./given.js";

const AT = { at: "2026-01-03T00:00:00.000Z", by: "orchestrator" };

describe("retry budget", () => {
  it("defaults to 3", () => {
    expect(DEFAULT_RETRY_BUDGET).toBe(3);
  });

  it.each(LIVE_STATES)(
    "in %s, budget 3: failures 1..3 retry, the 4th is FAILURE naming the budget",
    (state) => {
      let job = givenJob(state, { failures: 0 });
      for (let n = 1; n <= 3; n++) {
        const result = recordStateFailure(deepFreeze(job), meta(`tool crashed #${n}`), 3);
        expect(result.exhausted).toBe(false);
        expect(result.job.state).toBe(state);
        expect(result.job.failures).toBe(n);
        expect(result.job.history).toEqual(job.history);
        job = result.job;
      }
      const fourth = recordStateFailure(deepFreeze(job), meta("tool crashed #4"), 3);
      expect(fourth.exhausted).toBe(true);
      expect(fourth.job.state).toBe("FAILURE");
      const last = fourth.job.history.at(-1);
      expect(last).toMatchObject({ from: state, action: "FAILURE", to: "FAILURE" });
      expect(last?.reason).toMatch(/retry budget/);
      expect(last?.reason).toMatch(/budget 3/);
      expect(last?.reason).toContain("tool crashed #4");
    },
  );

  it("budget 0 fails on the first state-level failure", () => {
    expect(recordStateFailure(givenJob("PLAN", { failures: 0 }), meta(), 0).job.state).toBe(
      "FAILURE",
    );
  });

  it("a transition resets the count, so failures in the next state start from zero", () => {
    const struggling = recordStateFailure(givenJob("INTENT", { failures: 2 }), meta(), 3).job;
    expect(struggling.failures).toBe(3);
    const moved = transition(struggling, "APPROVED_INTENT", meta());
    expect(moved.failures).toBe(0);
    const again = recordStateFailure(moved, meta(), 3);
    expect(again).toMatchObject({ exhausted: false, job: { state: "PLAN", failures: 1 } });
  });

  it.each(TERMINAL_STATES)(
    "refuses a state-level failure in terminal %s, whatever the count",
    (state) => {
      for (const failures of [0, 5]) {
        expect(() => recordStateFailure(givenJob(state, { failures }), meta(), 3)).toThrow(
          InvalidTransitionError,
        );
      }
    },
  );
});

describe("caps", () => {
  const caps: Caps = { turns: 10, backtracks: 2, costUsd: 5 };
  const within = { turns: 10, backtracks: 2, costUsd: 5 };
  const over: Record<keyof Caps, number> = { turns: 11, backtracks: 3, costUsd: 5.01 };

  it("defaults to 200 turns, 5 backtracks, $25", () => {
    expect(DEFAULT_CAPS).toEqual({ turns: 200, backtracks: 5, costUsd: 25 });
  });

  it("treats a value equal to its cap as within it", () => {
    const job = givenJob("EXECUTE", within);
    expect(breachedCap(job, caps)).toBeNull();
    const result = enforceCaps(job, caps, AT);
    expect(result.breach).toBeNull();
    expect(result.job).toBe(job);
  });

  it.each(CAP_NAMES)(
    "moves a job past its %s cap to FAILURE with a reason naming the cap",
    (cap) => {
      const job = givenJob("EXECUTE", { ...within, [cap]: over[cap] });
      const result = enforceCaps(job, caps, AT);
      expect(result.breach).toEqual({ cap, limit: caps[cap], value: over[cap] });
      expect(result.job.state).toBe("FAILURE");
      const last = result.job.history.at(-1);
      expect(last).toMatchObject({ from: "EXECUTE", action: "FAILURE", to: "FAILURE", ...AT });
      expect(last?.reason).toContain(`cap breached: ${cap}`);
    },
  );

  it.each(TERMINAL_STATES)("leaves a job already in %s alone, even past a cap", (state) => {
    const job = givenJob(state, { turns: 999 });
    expect(enforceCaps(job, caps, AT)).toEqual({ job, breach: null });
  });

  it("describes a cost breach so the two numbers differ", () => {
    expect(describeBreach({ cap: "costUsd", limit: 25, value: 26.5 })).toBe(
      "cap breached: costUsd $26.50 > $25.00",
    );
    const close = describeBreach({ cap: "costUsd", limit: 25, value: 25.001 });
    expect(close).toMatch(/^cap breached: costUsd \$25\.001 > \$25(\.00)?$/);
    expect(describeBreach({ cap: "turns", limit: 200, value: 201 })).toBe(
      "cap breached: turns 201 > 200",
    );
  });
});
