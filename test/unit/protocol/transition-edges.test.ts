// The state diagram (docs/protocol.md#jobs-and-states): every edge moves the job exactly as
// drawn, and every other (state, action) pair is refused. The expected edges are the test
// oracle's, written out by hand in test/support/protocol/diagram-1.ts, not derived from
// src/protocol/fsm.ts, so a wrong table fails these tests.

import { describe, expect, it } from "vitest";
import {
  ACTION_TO_STATE,
  ACTIONS,
  STATES,
  VALID_ACTIONS,
  isBacktrack,
  isEdge,
  validActions,
  type Action,
  type State,
} from "../../../src/protocol/fsm.js";
import { InvalidTransitionError } from "../../../src/protocol/errors.js";
import { transition } from "../../../src/protocol/transition.js";
import { givenJob, meta } from "../../support/protocol/given.js";
import { DIAGRAM_1, type OracleEdge } from "../../support/protocol/diagram-1.js";

/** REALIGN and REPLAN are the state diagram's backtracks: a job goes back to an earlier state. */
const isBacktrackEdge = (e: OracleEdge) => e.action === "REALIGN" || e.action === "REPLAN";

const key = (from: State, action: Action) => `${from} --${action}-->`;
const ALL_PAIRS = STATES.flatMap((from) => ACTIONS.map((action) => ({ from, action })));

/** Refused pairs derived from the source tables... */
const REFUSED_BY_TABLES = ALL_PAIRS.filter(
  ({ from, action }) => !validActions(from).includes(action),
);
/** ...and from the hand-written diagram. */
const REFUSED_BY_DIAGRAM = ALL_PAIRS.filter(
  ({ from, action }) => !DIAGRAM_1.some((e) => e.from === from && e.action === action),
);

describe("the state diagram: the transition tables", () => {
  it("has exactly the twelve hand-listed edges, no more, no fewer", () => {
    const fromTables = (Object.keys(VALID_ACTIONS) as (keyof typeof VALID_ACTIONS)[]).flatMap(
      (from) => VALID_ACTIONS[from].map((action) => key(from, action) + ACTION_TO_STATE[action]),
    );
    const fromDiagram = DIAGRAM_1.map((e) => key(e.from, e.action) + e.to);
    expect(new Set(fromDiagram).size).toBe(12);
    expect([...fromTables].sort()).toEqual([...fromDiagram].sort());
  });

  it("refuses the same 30 (state, action) pairs whether derived from the tables or the diagram", () => {
    expect(REFUSED_BY_TABLES).toHaveLength(STATES.length * ACTIONS.length - 12);
    expect(REFUSED_BY_TABLES.map((p) => key(p.from, p.action)).sort()).toEqual(
      REFUSED_BY_DIAGRAM.map((p) => key(p.from, p.action)).sort(),
    );
  });

  it("counts as backtracks exactly the REALIGN and REPLAN edges", () => {
    for (const e of DIAGRAM_1)
      expect(isBacktrack(e.from, e.to), key(e.from, e.action)).toBe(isBacktrackEdge(e));
  });

  it("agrees with isEdge on every pair", () => {
    for (const { from, action } of ALL_PAIRS) {
      const drawn = DIAGRAM_1.some((e) => e.from === from && e.action === action);
      expect(isEdge(from, action), key(from, action)).toBe(drawn);
    }
  });
});

describe("transition(): every edge of the state diagram", () => {
  describe.each(DIAGRAM_1)("given a job in $from, when $action", (edge) => {
    const { from, action, to } = edge;
    const backtrack = isBacktrackEdge(edge);
    const given = givenJob(from, { backtracks: 1 });
    const when = () => transition(given, action, meta(`why ${action}`));

    it(`then the job is in ${to}`, () => {
      expect(when().state).toBe(to);
    });

    it("then one history entry {from, action, to, at, by, reason} is appended", () => {
      const then = when();
      expect(then.history).toEqual([
        ...given.history,
        {
          from,
          action,
          to,
          at: "2026-01-02T03:04:05.000Z",
          by: "orchestrator",
          reason: `why ${action}`,
        },
      ]);
      expect(Object.keys(then.history.at(-1) ?? {}).sort()).toEqual([
        "action",
        "at",
        "by",
        "from",
        "reason",
        "to",
      ]);
    });

    it(`then the backtrack count ${backtrack ? "goes up by one" : "is unchanged"}`, () => {
      expect(when().backtracks).toBe(given.backtracks + (backtrack ? 1 : 0));
    });

    it("then the consecutive-failure count is reset", () => {
      expect(given.failures).toBeGreaterThan(0);
      expect(when().failures).toBe(0);
    });

    it("then everything else carries over and the input record is not mutated", () => {
      const before = JSON.stringify(given);
      const then = when();
      expect(JSON.stringify(given)).toBe(before);
      expect(then).not.toBe(given);
      const { state: _s, history: _h, backtracks: _b, failures: _f, entry: _e, ...rest } = then;
      const {
        state: _s2,
        history: _h2,
        backtracks: _b2,
        failures: _f2,
        entry: _e2,
        ...was
      } = given;
      expect(rest).toEqual(was);
    });
  });
});

describe("transition(): every refused pair", () => {
  describe.each(REFUSED_BY_DIAGRAM)("given a job in $from, when $action", ({ from, action }) => {
    it("then InvalidTransitionError names from, action and what is allowed", () => {
      const given = givenJob(from);
      let thrown: unknown;
      try {
        transition(given, action, meta());
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidTransitionError);
      const error = thrown as InvalidTransitionError;
      const allowed = DIAGRAM_1.filter((e) => e.from === from).map((e) => e.action);
      expect(error.name).toBe("InvalidTransitionError");
      expect(error.from).toBe(from);
      expect(error.action).toBe(action);
      expect([...error.allowed].sort()).toEqual([...allowed].sort());
      expect(error.message).toMatch(/^cfa\/protocol: /);
      expect(error.message).toContain(action);
      expect(error.message).toContain(from);
      if (allowed.length === 0) expect(error.message).toContain("terminal");
      else for (const a of allowed) expect(error.message).toContain(a);
    });
  });
});

describe("transition(): entries into a state", () => {
  it("numbers re-entries: INTENT is entry 1 at creation and entry 2 after a REALIGN", () => {
    const plan = givenJob("PLAN");
    expect(givenJob("INTENT").entry).toBe(1);
    expect(plan.entry).toBe(1);
    const back = transition(plan, "REALIGN", meta());
    expect(back.entry).toBe(2);
    const planAgain = transition(back, "APPROVED_INTENT", meta());
    expect(planAgain.entry).toBe(2);
    const execute = transition(planAgain, "APPROVED_PLAN", meta());
    expect(execute.entry).toBe(1);
    expect(transition(execute, "REPLAN", meta()).entry).toBe(3);
  });
});
