// Fairness of the turn scheduler: no instance starves because of its name. The rule
// (src/engine/apply/fair-order.ts): first come, first served from the decision that first saw
// an instance's mailbox non-empty; ties least recently run first, then by name.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fairOrder, noteRunnable } from "../../../../src/engine/apply/fair-order.js";

interface Simulated {
  /** key → decision it was queued at, and decision it started at. */
  queued: Map<string, number>;
  started: Map<string, number>;
  /** How many others were waiting at the decision each key was queued at. */
  ahead: Map<string, number>;
}

/**
 * Runs `arrivals.length` decisions: at decision d the keys in arrivals[d] get mail, then
 * `slots[d]` (≥ 1) instances start in fair order and leave the queue.
 */
function simulate(arrivals: string[][], slots: number[]): Simulated {
  const queuedSince = new Map<string, number>();
  const lastStarted = new Map<string, number>();
  const waiting = new Set<string>();
  const out: Simulated = { queued: new Map(), started: new Map(), ahead: new Map() };
  arrivals.forEach((keys, d) => {
    const arrived = keys.filter((k) => !waiting.has(k) && !out.started.has(k));
    for (const k of arrived) {
      waiting.add(k);
      out.queued.set(k, d);
    }
    // Everyone else waiting once this decision's arrivals are in may go first.
    for (const k of new Set(arrived)) out.ahead.set(k, waiting.size - 1);
    const runnable = [...waiting];
    noteRunnable(queuedSince, runnable, d);
    const chosen = fairOrder(runnable, { queuedSince, lastStarted }).slice(0, slots[d]);
    for (const k of chosen) {
      waiting.delete(k);
      queuedSince.delete(k);
      lastStarted.set(k, d);
      out.started.set(k, d);
    }
  });
  return out;
}

const key = fc.stringMatching(/^[a-z]{1,3}$/);
const decisions = fc
  .integer({ min: 1, max: 30 })
  .chain((n) =>
    fc.tuple(
      fc.array(fc.array(key, { maxLength: 4 }), { minLength: n, maxLength: n }),
      fc.array(fc.integer({ min: 1, max: 3 }), { minLength: n, maxLength: n }),
    ),
  );

describe("fair order", () => {
  it("first come, first served: nobody starts while someone queued earlier still waits", () => {
    fc.assert(
      fc.property(decisions, ([arrivals, slots]) => {
        const sim = simulate(arrivals, slots);
        for (const [k, startedAt] of sim.started) {
          for (const [other, queuedAt] of sim.queued) {
            if (queuedAt >= sim.queued.get(k)!) continue;
            // `other` queued strictly earlier: it started no later than k.
            const otherStart = sim.started.get(other);
            expect(otherStart, `${other} before ${k}`).toBeDefined();
            expect(otherStart!).toBeLessThanOrEqual(startedAt);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("an instance runnable for k decisions is started, within as many decisions as others waited with it", () => {
    fc.assert(
      fc.property(decisions, ([arrivals, slots]) => {
        const sim = simulate(arrivals, slots);
        for (const [k, queuedAt] of sim.queued) {
          const bound = queuedAt + sim.ahead.get(k)!;
          if (bound < arrivals.length) {
            expect(sim.started.get(k), k).toBeDefined();
            expect(sim.started.get(k)!).toBeLessThanOrEqual(bound);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("name order does not decide: the instance that got mail first starts first, whatever its name", () => {
    const sim = simulate([["zz"], ["aa"], []], [0, 1, 1]);
    expect(sim.started.get("zz")).toBe(1);
    expect(sim.started.get("aa")).toBe(2);
  });

  it("at the same decision, the least recently run goes first", () => {
    const queuedSince = new Map([
      ["b", 4],
      ["a", 4],
    ]);
    const lastStarted = new Map([
      ["a", 3],
      ["b", 1],
    ]);
    expect(fairOrder(["a", "b"], { queuedSince, lastStarted })).toEqual(["b", "a"]);
  });
});
