// The invariant "deterministic transitions" (docs/protocol.md#invariants): ACTION_TO_STATE is
// single-valued and total, transition() is a function of its inputs, and skill outcomes
// outside the state's domain are caught as violations, never applied as transitions. Expected
// targets and permitted outcomes come from the oracle (diagram-1.ts), never from the code's
// own tables.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACTION_TO_STATE, ACTIONS, LIVE_STATES, isState } from "../../../src/protocol/fsm.js";
import { serializeJobRecord } from "../../../src/protocol/job-record.js";
import { parseOutcomeRecord } from "../../../src/protocol/outcome-record.js";
import { transition } from "../../../src/protocol/transition.js";
import { jobArb, metaArb, outcomeTextArb } from "../../support/protocol/arbitraries.js";
import { DIAGRAM_1, SKILL_OUTCOMES, oracleActions } from "../../support/protocol/diagram-1.js";
import { deepFreeze } from "../../support/protocol/given.js";

describe("Deterministic transitions", () => {
  it("Deterministic transitions: ACTION_TO_STATE is total over ACTIONS and names one state per action", () => {
    expect(Object.keys(ACTION_TO_STATE).sort()).toEqual([...ACTIONS].sort());
    for (const action of ACTIONS) expect(isState(ACTION_TO_STATE[action])).toBe(true);
    for (const edge of DIAGRAM_1) expect(ACTION_TO_STATE[edge.action], edge.action).toBe(edge.to);
  });

  it("Deterministic transitions: the action alone decides the target, whatever the source", () => {
    fc.assert(
      fc.property(jobArb, metaArb, fc.nat(), (job, meta, pick) => {
        const edges = DIAGRAM_1.filter((e) => e.from === job.state);
        fc.pre(edges.length > 0);
        const edge = edges[pick % edges.length]!;
        expect(transition(job, edge.action, meta).state).toBe(edge.to);
      }),
    );
  });

  it("Deterministic transitions: same record + action + meta gives the same bytes, input untouched", () => {
    fc.assert(
      fc.property(jobArb, metaArb, fc.nat(), (job, meta, pick) => {
        const actions = oracleActions(job.state);
        fc.pre(actions.length > 0);
        const action = actions[pick % actions.length]!;
        const before = serializeJobRecord(job);
        const twin = structuredClone(job);
        const once = serializeJobRecord(transition(deepFreeze(job), action, meta));
        expect(serializeJobRecord(transition(job, action, meta))).toBe(once);
        expect(serializeJobRecord(transition(twin, action, { ...meta }))).toBe(once);
        expect(serializeJobRecord(job)).toBe(before);
      }),
    );
  });

  it("Deterministic transitions: any outcome text is either a permitted action or a violation, never a throw", () => {
    fc.assert(
      fc.property(outcomeTextArb, fc.constantFrom(...LIVE_STATES), (text, state) => {
        const parsed = parseOutcomeRecord(text, state);
        if (parsed.ok) {
          expect(SKILL_OUTCOMES[state]).toContain(parsed.record.outcome);
          expect(parsed.record.reason.trim()).not.toBe("");
        } else {
          expect(parsed.violation).toMatch(/\S/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("Deterministic transitions: an out-of-domain outcome is a violation in every live state", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LIVE_STATES),
        fc.constantFrom(...ACTIONS),
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ""),
        (state, outcome, reason) => {
          fc.pre(!SKILL_OUTCOMES[state].includes(outcome));
          const parsed = parseOutcomeRecord(JSON.stringify({ outcome, reason }), state);
          expect(parsed.ok).toBe(false);
        },
      ),
    );
  });
});
