// The invariant "termination" (docs/protocol.md#invariants): whatever skills write and however
// often states fail, a job driven by the orchestrator loop reaches DONE, WITHDRAWN or FAILURE,
// within a bound that follows from the caps and the retry budget (a capped run fails:
// docs/protocol.md#recorded-decisions).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLiveState, isTerminalState } from "../../../src/protocol/fsm.js";
import {
  DEFAULT_CAPS,
  DEFAULT_RETRY_BUDGET,
  enforceCaps,
  recordStateFailure,
  type Caps,
} from "../../../src/protocol/failure.js";
import { newJobRecord, type JobRecord } from "../../../src/protocol/job-record.js";
import { parseOutcomeRecord } from "../../../src/protocol/outcome-record.js";
import { transition } from "../../../src/protocol/transition.js";
import { outcomeTextArb } from "../../support/protocol/arbitraries.js";

/** What one turn of a live state can produce. */
type Step =
  | { kind: "outcome"; text: string; cost: number }
  | { kind: "failure"; cost: number }
  | { kind: "pending"; cost: number };

const costArb = fc.double({ min: 0, max: 0.5, noNaN: true });
const outcomeStep = fc.record({
  kind: fc.constant("outcome" as const),
  text: outcomeTextArb,
  cost: costArb,
});
const failureStep = fc.record({ kind: fc.constant("failure" as const), cost: costArb });
const pendingStep = fc.record({ kind: fc.constant("pending" as const), cost: costArb });

const capsArb: fc.Arbitrary<Caps> = fc.record({
  turns: fc.nat({ max: 60 }),
  backtracks: fc.nat({ max: 6 }),
  costUsd: fc.double({ min: 0, max: 50, noNaN: true }),
});

/** Far beyond any bound below: reaching it means the loop does not terminate. */
const RUNAWAY = 100_000;

/** A model of the engine's loop over one job, using only the protocol's functions. */
function run(steps: Iterator<Step>, caps: Caps, budget: number) {
  let job: JobRecord = newJobRecord({ job: 1, title: "t", at: "2026-01-01T00:00:00.000Z" });
  let count = 0;
  while (!isTerminalState(job.state) && count < RUNAWAY) {
    const state = job.state;
    if (!isLiveState(state)) throw new Error("unreachable");
    const step = steps.next().value as Step;
    count += 1;
    const at = `turn ${count}`;
    const before = job;
    switch (step.kind) {
      case "outcome": {
        const parsed = parseOutcomeRecord(step.text, state);
        job = parsed.ok
          ? transition(job, parsed.record.outcome, { at, by: "lead", reason: parsed.record.reason })
          : recordStateFailure(job, { at, by: "orchestrator", reason: parsed.violation }, budget)
              .job;
        break;
      }
      case "failure":
        job = recordStateFailure(
          job,
          { at, by: "orchestrator", reason: "runner died" },
          budget,
        ).job;
        break;
      case "pending":
        // A turn without an outcome record is pending: it leaves the state as it was.
        break;
      default: {
        const never: never = step;
        throw new Error(`unknown step ${JSON.stringify(never)}`);
      }
    }
    job = { ...job, turns: job.turns + 1, costUsd: job.costUsd + step.cost };
    job = enforceCaps(job, caps, { at, by: "orchestrator" }).job;
    // History only grows: the records are append-only.
    expect(job.history.slice(0, before.history.length)).toEqual(before.history);
    expect(job.failures).toBeLessThanOrEqual(budget);
  }
  return { job, steps: count };
}

/** With no PENDING turns: at most budget+1 turns per visit, 3 visits per backtrack-free run. */
const visitBound = (caps: Caps, budget: number) => (budget + 1) * 3 * (caps.backtracks + 1);
/** Every turn counts, and the (turns + 1)-th breaches the cap. */
const turnBound = (caps: Caps) => caps.turns + 1;

describe("Termination guaranteed", () => {
  it("Termination guaranteed: any mix of outcomes, failures and pending turns ends within caps.turns + 1 turns", () => {
    fc.assert(
      fc.property(
        fc.infiniteStream(fc.oneof(outcomeStep, failureStep, pendingStep)),
        capsArb,
        fc.nat({ max: 5 }),
        (stream, caps, budget) => {
          const { job, steps } = run(stream[Symbol.iterator](), caps, budget);
          expect(["DONE", "WITHDRAWN", "FAILURE"]).toContain(job.state);
          expect(steps).toBeLessThanOrEqual(turnBound(caps));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("Termination guaranteed: without pending turns, the budget and backtrack cap alone bound the run", () => {
    const uncapped = Number.MAX_SAFE_INTEGER;
    fc.assert(
      fc.property(
        fc.infiniteStream(fc.oneof(outcomeStep, failureStep)),
        fc.nat({ max: 6 }),
        fc.nat({ max: 5 }),
        (stream, backtracks, budget) => {
          const caps = { turns: uncapped, backtracks, costUsd: uncapped };
          const { job, steps } = run(stream[Symbol.iterator](), caps, budget);
          expect(["DONE", "WITHDRAWN", "FAILURE"]).toContain(job.state);
          expect(steps).toBeLessThanOrEqual(visitBound(caps, budget));
          expect(job.backtracks).toBeLessThanOrEqual(backtracks + 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("Termination guaranteed: with the default caps and budget every run ends within 72 turns", () => {
    expect(Math.min(turnBound(DEFAULT_CAPS), visitBound(DEFAULT_CAPS, DEFAULT_RETRY_BUDGET))).toBe(
      72,
    );
    fc.assert(
      fc.property(fc.infiniteStream(fc.oneof(outcomeStep, failureStep)), (stream) => {
        const { job, steps } = run(stream[Symbol.iterator](), DEFAULT_CAPS, DEFAULT_RETRY_BUDGET);
        expect(isTerminalState(job.state)).toBe(true);
        expect(steps).toBeLessThanOrEqual(72);
      }),
      { numRuns: 200 },
    );
  });

  it("Termination guaranteed: repeated state-level failure gives FAILURE after budget + 1 turns, not a loop", () => {
    fc.assert(
      fc.property(fc.nat({ max: 10 }), (budget) => {
        const failing = {
          next: () => ({ done: false, value: { kind: "failure", cost: 0 } as Step }),
        };
        const { job, steps } = run(failing, DEFAULT_CAPS, budget);
        expect(job.state).toBe("FAILURE");
        expect(steps).toBe(budget + 1);
        expect(job.history.at(-1)?.reason).toMatch(new RegExp(`budget ${budget}\\b`));
      }),
    );
  });

  it("Termination guaranteed: a skill that never writes its record is stopped by the turns cap", () => {
    const pending = { next: () => ({ done: false, value: { kind: "pending", cost: 0 } as Step }) };
    const { job, steps } = run(pending, { ...DEFAULT_CAPS, turns: 7 }, 3);
    expect(job.state).toBe("FAILURE");
    expect(steps).toBe(8);
    expect(job.history.at(-1)?.reason).toContain("cap breached: turns 8 > 7");
  });

  it("Termination guaranteed: endless backtracking is stopped by the backtracks cap", () => {
    // INTENT -> PLAN -> INTENT -> ... : every REALIGN is a backtrack.
    let i = 0;
    const texts = [
      '{"outcome":"APPROVED_INTENT","reason":"ok"}',
      '{"outcome":"REALIGN","reason":"no"}',
    ];
    const pingPong = {
      next: () => ({
        done: false,
        value: { kind: "outcome", text: texts[i++ % 2]!, cost: 0 } as Step,
      }),
    };
    const { job, steps } = run(pingPong, { ...DEFAULT_CAPS, backtracks: 2 }, 3);
    expect(job.state).toBe("FAILURE");
    expect(job.backtracks).toBe(3);
    expect(steps).toBe(6);
    expect(job.history.at(-1)?.reason).toContain("cap breached: backtracks 3 > 2");
  });
});
