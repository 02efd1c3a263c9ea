// The invariant "termination" (docs/protocol.md#invariants), through the real engine rather
// than a model of its loop: the real wake() (src/engine/wake.ts) runs a job on a real git
// repository, its leads played by a randomly scripted model — approvals through a gate,
// backtracks, outcomes refused by the finish tool, approvals without a gate (a contract
// violation, so a state-level failure), failed model calls, turns that end without an outcome
// (PENDING), withdrawals — and the job must reach DONE, WITHDRAWN or FAILURE in that one wake.
// What it went through is checked against the state-diagram oracle (diagram-1.ts), not against
// src/protocol's tables.
//
// Escalation is `never` in every state, so the person's proxy answers every gate and one
// wake runs the job to its end. A script is cycled when it runs out, so a model that
// backtracks forever meets the backtracks cap and one that never finishes meets the nudge
// bound: termination must come from the engine, never from the script ending.

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Action, LiveState } from "../../../src/protocol/fsm.js";
import type { AssistantBlock, Model, ModelRequest } from "../../../src/ports/model.js";
import { wake } from "../../../src/engine/index.js";
import { createLocalJob } from "../../support/engine/local-job.js";
import { openJob } from "../../support/engine/person.js";
import { state as recordOf } from "../../support/engine/inspect.js";
import { answer, call, respond as step, say as sayStep } from "../../support/engine/script.js";
import { oracleIsBacktrack, oracleIsLive, oracleTarget } from "../../support/protocol/diagram-1.js";
import { bound } from "../../support/time-bound.js";

/** What a lead does at a decision point (the start of a turn, or after a refused call). */
type Move =
  | "approve" // write the artifact, ask for review at a gate, finish with the approval
  | "backtrack" // finish REALIGN/REPLAN (refused by the finish tool in INTENT)
  | "skill-failure" // finish FAILURE: the orchestrator's action, refused to a skill
  | "unapproved" // finish with the approval, no gate approved: a violation at the turn's end
  | "error" // the model call fails: a failed turn
  | "pending" // end the turn without an outcome: PENDING, the lead is nudged
  | "withdraw";

const BACKTRACK_CAP = 2;
const RETRY_BUDGET = 1;
const NUDGES = 2;
const CONFIG = [
  "escalation:",
  "  INTENT: never",
  "  PLAN: never",
  "  EXECUTE: never",
  `retryBudget: ${RETRY_BUDGET}`,
  `nudges: ${NUDGES}`,
  "caps:",
  `  backtracks: ${BACKTRACK_CAP}`,
  "  turns: 30",
  "limits:",
  "  toolCallsPerTurn: 10",
  "",
].join("\n");

const ARTIFACT: Record<LiveState, string> = {
  INTENT: "INTENT.md",
  PLAN: "PLAN.md",
  EXECUTE: "WORK_SUMMARY.md",
};
const APPROVAL: Record<LiveState, Action> = {
  INTENT: "APPROVED_INTENT",
  PLAN: "APPROVED_PLAN",
  EXECUTE: "APPROVED_WORK",
};
const LEAD_STATE: Record<string, LiveState> = {
  intent: "INTENT",
  plan: "PLAN",
  execute: "EXECUTE",
};

const usage = { inputTokens: 300, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * A model that plays every lead from one script of moves (cycled), and a proxy that approves
 * every gate. It keeps, per instance, where its approval plan is; nothing else.
 */
function scriptedLeads(script: readonly Move[], choices: readonly number[]) {
  let next = 0;
  let choice = 0;
  const plans = new Map<string, "wrote" | "asked">();
  const played: Move[] = [];
  const draw = (): Move => {
    const move = script[next % script.length]!;
    next += 1;
    played.push(move);
    return move;
  };
  const pickOne = <T>(xs: readonly T[]): T => xs[choices[choice++ % choices.length]! % xs.length]!;
  const respond = (request: ModelRequest, calls: AssistantBlock[]) =>
    answer(request, step(calls, usage));
  const say = (request: ModelRequest, text: string) => answer(request, sayStep(text, usage));

  const model: Model = {
    async complete(request) {
      const [agent, thread] = request.instance.split("@");
      if (agent === "proxy") return respond(request, [call("answer", { text: "approved" })]);
      const state = LEAD_STATE[thread?.split(":")[1] ?? ""];
      if (state === undefined) throw new Error(`test: no script for ${request.instance}`);
      const finish = (outcome: Action, reason: string) =>
        respond(request, [call("finish", { outcome, reason })]);
      const artifact = `.cfa/jobs/1/${ARTIFACT[state]}`;

      const plan = plans.get(request.instance);
      if (plan === "wrote") {
        plans.set(request.instance, "asked");
        return respond(request, [call("ask_question", { kind: "gate", text: "Ready?", artifact })]);
      }
      if (plan === "asked") {
        plans.delete(request.instance);
        const last = JSON.stringify(request.messages.at(-1) ?? "");
        if (last.includes("approved (by the person")) return finish(APPROVAL[state], "approved");
      }
      switch (draw()) {
        case "approve":
          plans.set(request.instance, "wrote");
          return respond(request, [
            call("write_file", { path: artifact, content: `# ${state}\n\nround ${next}\n` }),
          ]);
        case "backtrack": {
          const back: Action[] =
            state === "EXECUTE"
              ? ["REPLAN", "REALIGN"]
              : state === "PLAN"
                ? ["REALIGN"]
                : ["REPLAN"];
          return finish(pickOne(back), "the earlier phase got it wrong");
        }
        case "skill-failure":
          return finish("FAILURE", "I give up");
        case "unapproved":
          return finish(APPROVAL[state], "nobody asked, but it looks fine");
        case "error":
          throw new Error("test: the API returned 500");
        case "pending":
          return say(request, "Still thinking.");
        case "withdraw":
          return finish("WITHDRAW", "the person lost interest");
      }
    },
  };
  return { model, played };
}

const moveArb: fc.Arbitrary<Move> = fc.oneof(
  { weight: 24, arbitrary: fc.constant("approve" as const) },
  { weight: 16, arbitrary: fc.constant("backtrack" as const) },
  { weight: 4, arbitrary: fc.constant("skill-failure" as const) },
  { weight: 4, arbitrary: fc.constant("unapproved" as const) },
  { weight: 4, arbitrary: fc.constant("error" as const) },
  { weight: 4, arbitrary: fc.constant("pending" as const) },
  { weight: 1, arbitrary: fc.constant("withdraw" as const) },
);

interface Seen {
  state: string;
  backtracks: number;
  reason: string;
}

async function runJob(script: readonly Move[], choices: readonly number[]): Promise<Seen> {
  const { model, played } = scriptedLeads(script, choices);
  const job = await createLocalJob({ model, config: CONFIG });
  try {
    await openJob(job);
    const summary = await wake(1, job.deps);
    const record = recordOf(job);
    const trail = `script ${JSON.stringify(script)}, played ${played.join(" ")}`;

    // One wake ends it: nothing waits on a person, and the engine must not stop short.
    expect(summary.state, trail).toBe(record.state);
    expect(oracleIsLive(record.state as LiveState), trail).toBe(false);

    // Every history entry is an edge of the state diagram, chained from INTENT.
    let at = "INTENT";
    for (const h of record.history) {
      expect(h.from, trail).toBe(at);
      expect(oracleTarget(h.from as LiveState, h.action as Action), `${h.from} ${h.action}`).toBe(
        h.to,
      );
      // FAILURE is the orchestrator's alone; every other action is the lead of its state's.
      if (h.action === "FAILURE") expect(h.by, trail).toBe("orchestrator");
      else expect(h.by, trail).toMatch(/^(intent|project)-lead@state:/);
      at = h.to;
    }
    expect(at).toBe(record.state);

    // The counter is the backtrack edges taken, and the cap stops the (cap + 1)-th.
    const backtracks = record.history.filter((h) =>
      oracleIsBacktrack(h.from as LiveState, h.to as LiveState),
    ).length;
    expect(record.backtracks, trail).toBe(backtracks);
    expect(backtracks, trail).toBeLessThanOrEqual(BACKTRACK_CAP + 1);
    const last = record.history.at(-1)!;
    if (backtracks > BACKTRACK_CAP) {
      expect(record.state, trail).toBe("FAILURE");
      expect(last.reason).toBe(`cap breached: backtracks ${BACKTRACK_CAP + 1} > ${BACKTRACK_CAP}`);
    }
    if (record.state === "DONE") expect(last.action).toBe("APPROVED_WORK");
    if (record.state === "WITHDRAWN") expect(played).toContain("withdraw");
    if (record.state === "FAILURE") {
      expect(last.reason, trail).toMatch(
        /^cap breached: |retry budget spent in |nudge limit reached in /,
      );
    }
    return { state: record.state, backtracks, reason: last.reason };
  } finally {
    await job.cleanup();
  }
}

// Generous timeouts: a whole job takes seconds alone, several times that inside the full
// suite on a shared 2-core machine. Time belongs in bench/, not in a test's verdict.
describe("Termination guaranteed through wake()", () => {
  it(
    "Termination guaranteed: a job past two backtracks reaches DONE in one wake",
    async () => {
      // INTENT approve → PLAN approve → EXECUTE REPLAN → PLAN approve → EXECUTE REALIGN →
      // INTENT approve → PLAN approve → EXECUTE approve.
      const result = await runJob(
        [
          "approve",
          "approve",
          "backtrack",
          "approve",
          "backtrack",
          "approve",
          "approve",
          "approve",
        ],
        [0, 1],
      );
      expect(result).toMatchObject({ state: "DONE", backtracks: 2 });
    },
    bound(180_000),
  );

  it(
    "Termination guaranteed: a lead that backtracks forever is stopped by the backtracks cap",
    async () => {
      const result = await runJob(["approve", "backtrack"], [0]);
      expect(result).toMatchObject({ state: "FAILURE", backtracks: BACKTRACK_CAP + 1 });
    },
    bound(180_000),
  );

  it(
    "Termination guaranteed: a lead that only ever calls a refused finish is capped, nudged, then FAILURE",
    async () => {
      // The finish tool refuses FAILURE to a skill; a refusal does not end the turn, so only
      // the per-turn tool-call cap ends it (it once did not: the turn, and the job, went on).
      const result = await runJob(["skill-failure"], [0]);
      expect(result.state).toBe("FAILURE");
      expect(result.reason).toMatch(/^nudge limit reached in INTENT/);
    },
    bound(180_000),
  );

  it(
    "Termination guaranteed: random moves of the leads end the job in one wake, whatever they are",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(moveArb, { minLength: 1, maxLength: 12 }),
          fc.array(fc.nat({ max: 9 }), { minLength: 1, maxLength: 4 }),
          async (script, choices) => {
            await runJob(script, choices);
          },
        ),
        // Each run is a whole job on real git (a few seconds): few runs, for the suite's time
        // budget; the seed changes at every run of the suite. CFA_WAKE_RUNS=50 explores more.
        { numRuns: Number(process.env.CFA_WAKE_RUNS ?? 3), endOnFailure: true },
      );
    },
    bound(400_000),
  );
});
