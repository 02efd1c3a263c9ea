// The invariant "termination" (docs/protocol.md#invariants) at the protocol's level, checked
// against oracles written here from the protocol's words, not from failure.ts: the retry
// budget counts consecutive state-level failures (docs/protocol.md#configuration), so
// scattered ones over a long state do not add up; PENDING nudges are free of it and bounded
// on their own, so an idle lead neither spends the budget nor waits forever; a breached cap
// is FAILURE naming the cap (docs/protocol.md#recorded-decisions: a cap fails the run); and
// the backtrack counter trips the backtracks cap on exactly the (cap + 1)-th backtrack.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Action, LiveState } from "../../../src/protocol/fsm.js";
import {
  enforceCaps,
  recordLeadProgress,
  recordNudge,
  recordStateFailure,
  recordSuccessfulTurn,
  type Caps,
} from "../../../src/protocol/failure.js";
import { InvalidTransitionError } from "../../../src/protocol/errors.js";
import { newJobRecord, type JobRecord } from "../../../src/protocol/job-record.js";
import { transition } from "../../../src/protocol/transition.js";
import { jobArb } from "../../support/protocol/arbitraries.js";
import {
  ORACLE_LIVE,
  oracleIsBacktrack,
  oracleIsLive,
  oracleStart,
  oracleStep,
  oracleTarget,
} from "../../support/protocol/diagram-1.js";
import { deepFreeze } from "../../support/protocol/given.js";
import { cycleAction, picksArb } from "../../support/protocol/walks.js";

const AT = { at: "2026-01-05T00:00:00.000Z", by: "orchestrator" };

/** A job in `state` reached by real transitions, with a clean failure and nudge count. */
function jobIn(state: LiveState): JobRecord {
  const path: Record<LiveState, Action[]> = {
    INTENT: [],
    PLAN: ["APPROVED_INTENT"],
    EXECUTE: ["APPROVED_INTENT", "APPROVED_PLAN"],
  };
  let job = newJobRecord({ job: 5, title: "budget", at: AT.at });
  for (const action of path[state]) job = transition(job, action, { ...AT, reason: "go" });
  return job;
}

type Event = "fail" | "succeed" | "nudge" | "progress";
const eventArb = fc.constantFrom<Event>("fail", "succeed", "nudge", "progress");

describe("retry budget and nudges against the spec (oracle)", () => {
  it("Termination guaranteed: the (budget + 1)-th failure in a row is FAILURE; a successful turn restarts the count; nudges neither spend nor restart it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORACLE_LIVE),
        fc.nat({ max: 4 }),
        fc.nat({ max: 4 }),
        fc.array(eventArb, { minLength: 1, maxLength: 40, size: "max" }),
        (state, budget, limit, events) => {
          let job = jobIn(state);
          // The oracle: two independent runs, consecutive failures and consecutive nudges.
          let failuresInARow = 0;
          let nudgesInARow = 0;
          for (const [i, event] of events.entries()) {
            const meta = { ...AT, reason: `event ${i}` };
            const before = deepFreeze(job);
            let ended = false;
            switch (event) {
              case "fail": {
                failuresInARow += 1;
                const r = recordStateFailure(before, meta, budget);
                ended = failuresInARow > budget;
                expect(r.exhausted).toBe(ended);
                job = r.job;
                if (ended) {
                  expect(job.history.at(-1)).toMatchObject({
                    from: state,
                    action: "FAILURE",
                    to: "FAILURE",
                    by: "orchestrator",
                  });
                  expect(job.history.at(-1)!.reason).toContain("retry budget");
                  expect(job.history.at(-1)!.reason).toContain(`budget ${budget}`);
                  expect(job.history.at(-1)!.reason).toContain(`event ${i}`);
                }
                break;
              }
              case "succeed":
                failuresInARow = 0;
                job = recordSuccessfulTurn(before);
                break;
              case "nudge": {
                nudgesInARow += 1;
                const r = recordNudge(before, meta, limit);
                ended = nudgesInARow > limit;
                expect(r.exhausted).toBe(ended);
                job = r.job;
                if (ended) {
                  expect(job.history.at(-1)).toMatchObject({ action: "FAILURE", to: "FAILURE" });
                  expect(job.history.at(-1)!.reason).toContain(`nudges ${limit}`);
                }
                break;
              }
              case "progress":
                nudgesInARow = 0;
                job = recordLeadProgress(before);
                break;
            }
            if (ended) {
              expect(job.state).toBe("FAILURE");
              expect(job.history).toHaveLength(before.history.length + 1);
              return;
            }
            expect(job.state).toBe(state);
            expect(job.history).toEqual(before.history);
            expect(job.failures).toBe(failuresInARow);
            expect(job.nudges).toBe(nudgesInARow);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("Termination guaranteed: a transition restarts both counts; the next state fails only after its own budget + 1 failures", () => {
    fc.assert(
      fc.property(fc.nat({ max: 4 }), fc.nat({ max: 4 }), (budget, spent) => {
        let job = jobIn("PLAN");
        for (let i = 0; i < Math.min(spent, budget); i++) {
          job = recordStateFailure(job, { ...AT, reason: "x" }, budget).job;
        }
        job = recordNudge(job, { ...AT, reason: "idle" }, 9).job;
        const moved = transition(job, "APPROVED_PLAN", { ...AT, reason: "ok" });
        expect(moved).toMatchObject({ state: "EXECUTE", failures: 0, nudges: 0 });
        let after = moved;
        for (let i = 1; i <= budget; i++) {
          const r = recordStateFailure(after, { ...AT, reason: "y" }, budget);
          expect(r.exhausted).toBe(false);
          after = r.job;
        }
        expect(recordStateFailure(after, { ...AT, reason: "z" }, budget).job.state).toBe("FAILURE");
      }),
    );
  });

  it("Termination guaranteed: nothing more can fail, be nudged or transition once the job is terminal", () => {
    fc.assert(
      fc.property(jobArb, (job) => {
        fc.pre(!oracleIsLive(job.state));
        // Refused as the FAILURE edge a terminal does not have: the state diagram draws none out
        // of it.
        for (const record of [recordStateFailure, recordNudge]) {
          let thrown: unknown = null;
          try {
            record(job, { ...AT, reason: "x" });
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(InvalidTransitionError);
          expect(thrown).toMatchObject({ from: job.state, action: "FAILURE", allowed: [] });
        }
        expect(recordSuccessfulTurn(job)).toBe(job);
        expect(recordLeadProgress(job)).toBe(job);
      }),
      { numRuns: 200 },
    );
  });
});

const capsArb: fc.Arbitrary<Caps> = fc.record({
  turns: fc.nat({ max: 40 }),
  backtracks: fc.nat({ max: 8 }),
  costUsd: fc.double({ min: 0, max: 20, noNaN: true }),
});

describe("caps against the spec: a cap fails the run (oracle)", () => {
  it("Termination guaranteed: a live job over any cap goes to FAILURE naming the first one (turns, backtracks, cost); a job within every cap, or terminal, is left as it is", () => {
    fc.assert(
      fc.property(
        jobArb,
        capsArb,
        fc.nat({ max: 45 }),
        fc.double({ min: 0, max: 25, noNaN: true }),
        (generated, caps, turns, costUsd) => {
          const job = deepFreeze({ ...generated, turns, costUsd });
          const over = [
            job.turns > caps.turns ? `turns ${job.turns} > ${caps.turns}` : null,
            job.backtracks > caps.backtracks
              ? `backtracks ${job.backtracks} > ${caps.backtracks}`
              : null,
            job.costUsd > caps.costUsd ? "costUsd" : null,
          ].filter((x) => x !== null);
          const result = enforceCaps(job, caps, AT);
          if (!oracleIsLive(job.state) || over.length === 0) {
            expect(result.job).toBe(job);
            expect(result.breach).toBeNull();
            return;
          }
          expect(result.job.state).toBe("FAILURE");
          const last = result.job.history.at(-1)!;
          expect(last).toMatchObject({ from: job.state, action: "FAILURE", by: "orchestrator" });
          expect(last.reason).toMatch(new RegExp(`^cap breached: ${over[0]}`));
          expect(result.breach?.cap).toBe(over[0]!.split(" ")[0]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("Termination guaranteed: walking the state diagram with the caps enforced after every edge, the (cap + 1)-th backtrack is FAILURE and the counter equals the backtracks taken", () => {
    fc.assert(
      fc.property(picksArb(60), fc.nat({ max: 6 }), (picks, cap) => {
        const caps = { turns: 10_000, backtracks: cap, costUsd: 10_000 };
        let job = newJobRecord({ job: 9, title: "cap", at: AT.at });
        let oracle = oracleStart();
        for (const pick of picks) {
          const action = cycleAction(job.state, pick);
          if (action === null) break;
          const to = oracleTarget(oracle.state, action)!;
          oracle = oracleStep(oracle, action)!;
          job = enforceCaps(transition(job, action, { ...AT, reason: "walk" }), caps, AT).job;
          if (oracle.backtracks > cap) {
            // The backtrack that went over is recorded, then the cap ends the job.
            expect(job.state).toBe("FAILURE");
            expect(job.history.at(-2)).toMatchObject({ action, to });
            expect(job.history.at(-1)!.reason).toBe(`cap breached: backtracks ${cap + 1} > ${cap}`);
          } else {
            expect(job.state).toBe(to);
          }
          expect(job.backtracks).toBe(
            job.history.filter((h) => oracleIsBacktrack(h.from, h.to)).length,
          );
          expect(job.backtracks).toBe(oracle.backtracks);
        }
        expect(job.backtracks).toBeLessThanOrEqual(cap + 1);
      }),
      { numRuns: 300 },
    );
  });
});
