// The invariant "deterministic transitions" (docs/protocol.md#invariants), checked against an
// oracle: the state diagram and the skill contract's permitted outcomes transcribed in
// diagram-1.ts, not the code's ACTION_TO_STATE, VALID_ACTIONS or allowedOutcomes (a property
// checked against the code's own table passes whatever the table says). The walks are weighted
// (walks.ts) so every state, DONE and long runs of backtracks come up in every run of these
// properties.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isAction,
  isBacktrack,
  isEdge,
  isLiveState,
  isState,
  isTerminalState,
  validActions,
  type Action,
  type LiveState,
  type State,
} from "../../../src/protocol/fsm.js";
import { InvalidTransitionError } from "../../../src/protocol/errors.js";
import { newJobRecord, type JobRecord } from "../../../src/protocol/job-record.js";
import { parseOutcomeRecord } from "../../../src/protocol/outcome-record.js";
import { transition, type TransitionMeta } from "../../../src/protocol/transition.js";
import { jobArb, metaArb, outcomeTextArb } from "../../support/protocol/arbitraries.js";
import {
  DIAGRAM_1,
  ORACLE_ACTIONS,
  ORACLE_LIVE,
  ORACLE_STATES,
  SKILL_OUTCOMES,
  oracleActions,
  oracleIsBacktrack,
  oracleIsLive,
  oracleStart,
  oracleStep,
  oracleTarget,
  type OracleJob,
} from "../../support/protocol/diagram-1.js";
import { deepFreeze } from "../../support/protocol/given.js";
import { attemptsArb, walkArb } from "../../support/protocol/walks.js";

const T0 = "2026-01-01T00:00:00.000Z";
const sorted = (xs: readonly string[]) => [...xs].sort();

/** Everything transition() must carry over untouched. */
function carried(job: JobRecord) {
  const {
    state: _s,
    entry: _e,
    history: _h,
    backtracks: _b,
    failures: _f,
    nudges: _n,
    ...rest
  } = job;
  return rest;
}

/** Applies `action` through the code and checks it against the oracle, step by step. */
function stepBoth(
  job: JobRecord,
  oracle: OracleJob,
  action: Action,
  meta: TransitionMeta,
): [JobRecord, OracleJob] {
  const expected = oracleStep(oracle, action);
  if (expected === null) {
    let thrown: unknown = null;
    try {
      transition(deepFreeze(job), action, meta);
    } catch (error) {
      thrown = error;
    }
    expect(thrown, `${oracle.state} --${action}--> must be refused`).toBeInstanceOf(
      InvalidTransitionError,
    );
    const error = thrown as InvalidTransitionError;
    expect(error.from).toBe(oracle.state);
    expect(error.action).toBe(action);
    expect(sorted(error.allowed)).toEqual(sorted(oracleActions(oracle.state)));
    return [job, oracle];
  }
  const next = transition(deepFreeze(job), action, meta);
  const edge = `${oracle.state} --${action}-->`;
  expect(next.state, edge).toBe(expected.state);
  expect(next.backtracks, `${edge} backtracks`).toBe(expected.backtracks);
  expect(next.entry, `${edge} entry`).toBe(expected.entries[expected.state]);
  expect(next.history).toEqual([
    ...job.history,
    { from: oracle.state, action, to: expected.state, ...meta },
  ]);
  expect(next.failures).toBe(0);
  expect(next.nudges).toBe(0);
  expect(carried(next)).toEqual(carried(job));
  return [next, expected];
}

const busyJob = (): JobRecord => ({
  ...newJobRecord({ job: 3, title: "oracle", at: T0 }),
  failures: 2,
  nudges: 1,
  turns: 9,
  costUsd: 0.75,
  engine: { cursor: 4 },
});

describe("Deterministic transitions against the state diagram (oracle)", () => {
  it("Deterministic transitions: every weighted walk moves the record exactly as the oracle does, edge by edge", () => {
    fc.assert(
      fc.property(
        walkArb(30),
        fc.array(metaArb, { minLength: 45, maxLength: 45 }),
        (walk, metas) => {
          let job = busyJob();
          let oracle = oracleStart();
          walk.forEach((action, i) => {
            [job, oracle] = stepBoth(job, oracle, action, metas[i % metas.length]!);
          });
          expect(job.history.map((h) => [h.from, h.action, h.to])).toEqual(
            oracle.path.map((p) => [p.from, p.action, p.to]),
          );
          // The counter is the number of backtrack edges the history holds.
          expect(job.backtracks).toBe(
            job.history.filter((h) => oracleIsBacktrack(h.from, h.to)).length,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("Deterministic transitions: actions that are not edges from where the job is are refused, naming the state diagram's edges, and change nothing", () => {
    fc.assert(
      fc.property(attemptsArb(30), metaArb, (attempts, meta) => {
        let job = busyJob();
        let oracle = oracleStart();
        for (const action of attempts) [job, oracle] = stepBoth(job, oracle, action, meta);
        expect(job.state).toBe(oracle.state);
        expect(job.history).toHaveLength(oracle.path.length);
      }),
      { numRuns: 300 },
    );
  });

  it("Deterministic transitions: from any reachable record, each of the seven actions goes where the state diagram says or nowhere", () => {
    fc.assert(
      fc.property(jobArb, fc.constantFrom(...ORACLE_ACTIONS), metaArb, (job, action, meta) => {
        const to = oracleTarget(job.state, action);
        if (to === null) {
          expect(() => transition(job, action, meta)).toThrow(InvalidTransitionError);
          return;
        }
        const next = transition(job, action, meta);
        expect(next.state).toBe(to);
        expect(next.backtracks).toBe(job.backtracks + (oracleIsBacktrack(job.state, to) ? 1 : 0));
        // Entry numbers: how many times the history (creation counting as INTENT's first)
        // has entered the target, this time included.
        const before = job.history.filter((h) => h.to === to).length + (to === "INTENT" ? 1 : 0);
        expect(next.entry).toBe(before + 1);
      }),
      { numRuns: 500 },
    );
  });

  it("Deterministic transitions: the helpers agree with the oracle on every state and every pair of states", () => {
    for (const from of ORACLE_STATES) {
      expect(sorted(validActions(from)), from).toEqual(sorted(oracleActions(from)));
      expect(isLiveState(from), from).toBe(oracleIsLive(from));
      expect(isTerminalState(from), from).toBe(!oracleIsLive(from));
      expect(isState(from), from).toBe(true);
      for (const to of ORACLE_STATES) {
        expect(isBacktrack(from, to), `${from} → ${to}`).toBe(oracleIsBacktrack(from, to));
      }
      for (const action of ORACLE_ACTIONS) {
        expect(isEdge(from, action), `${from} ${action}`).toBe(oracleTarget(from, action) !== null);
      }
    }
    for (const action of ORACLE_ACTIONS) expect(isAction(action), action).toBe(true);
    for (const junk of ["", "intent", "DONE ", "PENDING", 3, null, undefined, {}]) {
      expect(isState(junk), String(junk)).toBe(false);
      expect(isLiveState(junk), String(junk)).toBe(false);
      expect(isTerminalState(junk), String(junk)).toBe(false);
      expect(isAction(junk), String(junk)).toBe(false);
    }
  });

  it("Deterministic transitions: the oracle itself is the state diagram — twelve edges, three of them backtracks, no edge out of a terminal", () => {
    // Guards the transcription against a slip: counts stated in the protocol's own text.
    expect(DIAGRAM_1).toHaveLength(12);
    expect(DIAGRAM_1.filter((e) => oracleIsBacktrack(e.from, e.to)).map((e) => e.action)).toEqual([
      "REALIGN",
      "REALIGN",
      "REPLAN",
    ]);
    for (const state of ORACLE_STATES) {
      const out = new Set(oracleActions(state));
      expect(out.size).toBe(oracleActions(state).length);
      if (!oracleIsLive(state)) expect(out.size).toBe(0);
    }
    // "Action alone determines target state": each action has one target wherever it fires.
    for (const action of ORACLE_ACTIONS) {
      expect(new Set(DIAGRAM_1.filter((e) => e.action === action).map((e) => e.to)).size).toBe(1);
    }
  });
});

/** Zod's .trim() is String.prototype.trim; a reason is required, so a blank one is refused. */
const acceptableReason = (reason: string) =>
  reason.trim().length >= 1 && reason.trim().length <= 4000;

/** The violation names the outcome, the state and (in any order) what is permitted there. */
function expectNotPermitted(violation: string, outcome: Action, state: LiveState) {
  const match = /^outcome (\w+) is not permitted in (\w+) \(permitted: ([\w, ]+)\)$/.exec(
    violation,
  );
  expect(match, violation).not.toBeNull();
  expect(match![1]).toBe(outcome);
  expect(match![2]).toBe(state);
  expect(sorted(match![3]!.split(", "))).toEqual(sorted(SKILL_OUTCOMES[state]));
}

const reasonArb = fc
  .oneof(
    { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom("", " ", "\n\t ", " why ") },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 3990, max: 4010 })
        .chain((n) => fc.tuple(fc.constant("r".repeat(n)), fc.constantFrom("", "  "))),
    },
  )
  .map((r) => (Array.isArray(r) ? r[0] + r[1] : r));

describe("Skill outcomes against the skill contract (oracle)", () => {
  it("Deterministic transitions: a record is accepted exactly when its outcome is one the skill contract permits in the state and it gives a reason", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORACLE_LIVE),
        fc.constantFrom(...ORACLE_ACTIONS),
        reasonArb,
        (state: LiveState, outcome: Action, reason: string) => {
          const parsed = parseOutcomeRecord(JSON.stringify({ outcome, reason }), state);
          const permitted = SKILL_OUTCOMES[state].includes(outcome);
          expect(parsed.ok, `${outcome} in ${state}, reason ${JSON.stringify(reason)}`).toBe(
            permitted && acceptableReason(reason),
          );
          if (parsed.ok) {
            expect(parsed.record).toEqual({ outcome, reason: reason.trim() });
          } else {
            expect(parsed.violation).toMatch(/^outcome record is malformed|^outcome \w+ is not/);
            if (acceptableReason(reason)) {
              // Out of the state's domain: the message names the outcome, the state and
              // what the skill contract permits there.
              expectNotPermitted(parsed.violation, outcome, state);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("Deterministic transitions: FAILURE is never a skill's outcome, in any live state", () => {
    for (const state of ORACLE_LIVE) {
      const parsed = parseOutcomeRecord('{"outcome":"FAILURE","reason":"I give up"}', state);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expectNotPermitted(parsed.violation, "FAILURE", state);
    }
  });

  it("Deterministic transitions: any text at the outcome path is a permitted action with a reason, or a violation", () => {
    fc.assert(
      fc.property(outcomeTextArb, fc.constantFrom(...ORACLE_LIVE), (text, state) => {
        const parsed = parseOutcomeRecord(text, state);
        let raw: unknown = undefined;
        try {
          raw = JSON.parse(text);
        } catch {
          expect(parsed).toEqual({ ok: false, violation: "outcome record is not valid JSON" });
          return;
        }
        const exact =
          typeof raw === "object" &&
          raw !== null &&
          !Array.isArray(raw) &&
          sorted(Object.keys(raw)).join() === "outcome,reason";
        const r = raw as { outcome?: unknown; reason?: unknown };
        const expectOk =
          exact &&
          typeof r.outcome === "string" &&
          (SKILL_OUTCOMES[state] as readonly string[]).includes(r.outcome) &&
          typeof r.reason === "string" &&
          acceptableReason(r.reason);
        expect(parsed.ok).toBe(expectOk);
        if (!parsed.ok) expect(parsed.violation).toMatch(/^outcome /);
      }),
      { numRuns: 500 },
    );
  });

  it("Deterministic transitions: a malformed record's violation names every field that is wrong, or the record itself", () => {
    // One line per problem, `<field>: <what>`, joined with "; " (the engine posts it whole).
    const both = parseOutcomeRecord('{"outcome":"DONE","reason":"  "}', "EXECUTE");
    expect(both.ok).toBe(false);
    if (!both.ok) {
      expect(both.violation).toMatch(
        /^outcome record is malformed: outcome: .+; reason: reason must not be empty$/,
      );
    }
    for (const text of ["null", "[1]", '"APPROVED_WORK"', "7"]) {
      const parsed = parseOutcomeRecord(text, "EXECUTE");
      expect(parsed.ok).toBe(false);
      if (!parsed.ok)
        expect(parsed.violation, text).toMatch(/^outcome record is malformed: record: /);
    }
  });

  it("Deterministic transitions: a record with anything beyond {outcome, reason} is malformed", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORACLE_LIVE),
        fc.string({ minLength: 1 }).filter((k) => k !== "outcome" && k !== "reason"),
        fc.jsonValue(),
        (state, key, value) => {
          const record = { outcome: SKILL_OUTCOMES[state][0], reason: "ok", [key]: value };
          const parsed = parseOutcomeRecord(JSON.stringify(record), state);
          expect(parsed.ok).toBe(false);
          if (!parsed.ok) expect(parsed.violation).toMatch(/^outcome record is malformed: /);
        },
      ),
    );
  });
});

/** The weighted job generator's reach, so a change that starves a state fails here. */
describe("the weighted generators", () => {
  it("reach every state, DONE, EXECUTE and more backtracks than the default cap", () => {
    const jobs = fc.sample(jobArb, { numRuns: 2000, seed: 11 });
    const share = (p: (j: JobRecord) => boolean) => jobs.filter(p).length / jobs.length;
    for (const state of ORACLE_STATES) {
      expect(
        share((j) => j.state === state),
        state,
      ).toBeGreaterThan(0.1);
    }
    expect(share((j) => !oracleIsLive(j.state))).toBeLessThan(0.6);
    expect(share((j) => j.backtracks > 5)).toBeGreaterThan(0.3);
    expect(share((j) => j.history.some((h) => h.action === "REPLAN"))).toBeGreaterThan(0.3);
  });

  it("generate only the state diagram's edges, starting at INTENT", () => {
    for (const walk of fc.sample(walkArb(30), { numRuns: 500, seed: 12 })) {
      let state: State = "INTENT";
      for (const action of walk) {
        const to = oracleTarget(state, action);
        expect(to, `${state} --${action}-->`).not.toBeNull();
        state = to!;
      }
    }
  });
});
