// Failure accounting: a state's retry budget and the job's caps turn a stuck job into FAILURE,
// naming why, so every job terminates (docs/protocol.md#invariants, "termination") and a
// passed cap fails the run rather than ending it as a success
// (docs/protocol.md#recorded-decisions).

import { describe, expect, it } from "vitest";
import { InvalidTransitionError } from "../../../src/protocol/errors.js";
import {
  CAP_NAMES,
  DEFAULT_CAPS,
  DEFAULT_RETRY_BUDGET,
  DEFAULT_NUDGE_LIMIT,
  breachedCap,
  describeBreach,
  enforceCaps,
  recordLeadProgress,
  recordNudge,
  recordStateFailure,
  recordSuccessfulTurn,
  type Caps,
} from "../../../src/protocol/failure.js";
import { transition } from "../../../src/protocol/transition.js";
import { LIVE_STATES, TERMINAL_STATES } from "../../../src/protocol/fsm.js";
import { deepFreeze, givenJob, meta } from "../../support/protocol/given.js";

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

describe("retry budget: consecutive failures, so scattered failures over a long state do not add up", () => {
  it("a successful turn resets the count; the input is not mutated", () => {
    const struggling = givenJob("EXECUTE", { failures: 3 });
    const after = recordSuccessfulTurn(struggling);
    expect(after.failures).toBe(0);
    expect(after.state).toBe("EXECUTE");
    expect(after.history).toEqual(struggling.history);
    expect(struggling.failures).toBe(3);
  });

  it("a successful turn with nothing to reset returns the same record", () => {
    const fine = givenJob("PLAN", { failures: 0 });
    expect(recordSuccessfulTurn(fine)).toBe(fine);
  });

  it("leaves a terminal job as it is", () => {
    const done = givenJob("FAILURE", { failures: 4 });
    expect(recordSuccessfulTurn(done)).toBe(done);
  });

  it("scattered failures never exhaust the budget; budget + 1 in a row do", () => {
    let job = givenJob("EXECUTE", { failures: 0 });
    for (let i = 0; i < 20; i++) {
      const failed = recordStateFailure(job, meta(`flake ${i}`), 3);
      expect(failed.exhausted).toBe(false);
      expect(failed.job.failures).toBe(1);
      job = recordSuccessfulTurn(failed.job);
    }
    for (let i = 1; i <= 3; i++) job = recordStateFailure(job, meta(), 3).job;
    expect(job.failures).toBe(3);
    expect(recordStateFailure(job, meta(), 3).job.state).toBe("FAILURE");
  });
});

describe("PENDING nudges: an idle lead's nudges are bounded on their own, not by the retry budget", () => {
  it("defaults to 5 nudges in a row", () => {
    expect(DEFAULT_NUDGE_LIMIT).toBe(5);
  });

  it("counts nudges apart from failures; the (limit + 1)-th is FAILURE naming the bound", () => {
    let job = givenJob("PLAN", { failures: 1, nudges: 0 });
    for (let n = 1; n <= 2; n++) {
      const nudged = recordNudge(deepFreeze(job), meta("lead idle"), 2);
      expect(nudged.exhausted).toBe(false);
      expect(nudged.job).toMatchObject({ state: "PLAN", nudges: n, failures: 1 });
      expect(nudged.job.history).toEqual(job.history);
      job = nudged.job;
    }
    const third = recordNudge(deepFreeze(job), meta("lead idle"), 2);
    expect(third.exhausted).toBe(true);
    expect(third.job.state).toBe("FAILURE");
    expect(third.job.history.at(-1)).toMatchObject({ from: "PLAN", action: "FAILURE" });
    expect(third.job.history.at(-1)?.reason).toBe(
      "nudge limit reached in PLAN (3 nudges in a row, nudges 2): lead idle",
    );
  });

  it("uses the default limit when none is given", () => {
    const at = givenJob("INTENT", { nudges: DEFAULT_NUDGE_LIMIT - 1 });
    expect(recordNudge(at, meta()).exhausted).toBe(false);
    const over = givenJob("INTENT", { nudges: DEFAULT_NUDGE_LIMIT });
    expect(recordNudge(over, meta()).exhausted).toBe(true);
  });

  it("progress by the lead restarts the count; a transition does too", () => {
    const idle = givenJob("EXECUTE", { nudges: 4 });
    expect(recordLeadProgress(idle).nudges).toBe(0);
    const none = givenJob("EXECUTE", { nudges: 0 });
    expect(recordLeadProgress(none)).toBe(none);
    expect(transition(idle, "REPLAN", meta()).nudges).toBe(0);
    const ended = givenJob("DONE", { nudges: 3 });
    expect(recordLeadProgress(ended)).toBe(ended);
  });

  it.each(TERMINAL_STATES)("refuses a nudge in terminal %s", (state) => {
    expect(() => recordNudge(givenJob(state), meta(), 5)).toThrow(InvalidTransitionError);
  });
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
