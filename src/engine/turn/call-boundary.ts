// The engine's side of the model-call boundary (turn-contract.ts CallBoundary), one per turn.
//
// Before every call: the job's caps — turns counting the turns running ahead of this one,
// cost through the cost gate so parallel calls cannot overshoot — the turn's wall-clock
// limit, a pending intervention for a lead ([interrupt], docs/protocol.md#intervention: it
// preempts at the next call, not the next turn), then the response journal: a request
// already answered is answered again from it, never paid twice.
//
// After every response: priced on its own (`deps.price` per response: a long-context price band
// applies per response, not to a turn's sum), charged to the job record in memory (every cap sees
// it at once) and journalled outside the workspaces before any of its tool calls run.

import type { Address } from "../../protocol/address.js";
import { addressKey } from "../../protocol/address.js";
import { breachedCap, describeBreach } from "../../protocol/failure.js";
import type { Message, ModelResponse, ModelUsage } from "../../ports/model.js";
import type { BeforeCall, CallBoundary, IncomingMessage } from "../../agents/turn-contract.js";
import { charge } from "./charges.js";
import { requestDigest } from "./response-journal.js";
import { applyChange, now, progress, type JobRecords, type Session } from "../job/session.js";
import { runningBefore, runtimeOf } from "./wake-runtime.js";

/** What the engine keeps of a turn while it runs, whatever way it ends. */
export interface TurnLedger {
  /** The turn's messages so far (the loop's live list); null before the first call. */
  added: readonly Message[] | null;
  /** Usage of every response of the turn so far, paid or replayed. */
  usages: ModelUsage[];
  /** Every response, with how many of the turn's messages existed once it was added. */
  responses: { at: number; response: ModelResponse }[];
  /** Calls answered by the model in this turn, and calls answered from the journal. */
  paid: number;
  replayed: number;
  /** The cost gate's slot of the call in flight, if any. */
  slot: number | null;
  /** Set when the turn's deadline cut it (the abort carries no reason of ours). */
  timedOut: string | null;
}

export interface BoundaryOptions {
  address: Address;
  modelName: string;
  /** The turn's ticket among running turns (wake-runtime.ts). */
  ticket: number;
  /** Monotonic ms when the turn started, and the clock to compare with. */
  startedAt: number;
  monotonic: () => number;
  timeoutMs: number;
  /**
   * For the current lead: a message that preempts what its Run is on ([interrupt],
   * docs/protocol.md#intervention), already reduced in the soup, or null.
   */
  interrupt?: () => Promise<IncomingMessage | null>;
}

export function createCallBoundary(
  s: Session,
  options: BoundaryOptions,
): { boundary: CallBoundary; ledger: TurnLedger } {
  const rt = runtimeOf(s);
  const key = addressKey(options.address);
  const ledger: TurnLedger = {
    added: null,
    usages: [],
    responses: [],
    paid: 0,
    replayed: 0,
    slot: null,
    timedOut: null,
  };

  const capStop = (): BeforeCall | null => {
    // The turns running ahead of this one count as begun: parallel turns cannot jointly overshoot.
    const turns = s.job.turns + runningBefore(s, options.ticket) + 1;
    const breach = breachedCap({ ...s.job, turns }, s.config.caps);
    return breach === null ? null : { kind: "stop", cause: "cap", reason: describeBreach(breach) };
  };
  const timeoutStop = (): BeforeCall | null => {
    const ran = options.monotonic() - options.startedAt;
    if (ran <= options.timeoutMs) return null;
    return { kind: "stop", cause: "timeout", reason: timeoutReason(key, ran, options.timeoutMs) };
  };

  // In a task's own run: its share of the job's cap, across all of the task's runs.
  const allowanceStop = (): BeforeCall | null => {
    const reason = rt.taskRun?.beforeCall() ?? null;
    return reason === null ? null : { kind: "stop", cause: "cap", reason };
  };

  const boundary: CallBoundary = {
    async before(call) {
      ledger.added = call.added;
      const stop = capStop() ?? timeoutStop() ?? allowanceStop();
      if (stop !== null) return stop;
      // People's interventions, read while turns run (poll-interventions.ts).
      await rt.poll?.();
      if (rt.stopping !== null) return { kind: "stop", cause: "stopped", reason: rt.stopping };
      const preempting = await options.interrupt?.();
      if (preempting) return { kind: "inject", message: preempting };
      const entry = rt.journal?.take(call.request) ?? null;
      if (entry !== null) {
        ledger.replayed += 1;
        return { kind: "replay", response: entry.response };
      }
      const admission = await rt.gate.admit(() => s.job.costUsd, s.config.caps.costUsd);
      if (admission.kind === "over") return capStop() ?? overCost(s);
      // The wait may have been long: look at the clock and the caps again.
      const late = capStop() ?? timeoutStop();
      if (late !== null) {
        rt.gate.settle(admission.slot);
        return late;
      }
      ledger.slot = admission.slot;
      return { kind: "call" };
    },

    async after(call) {
      ledger.added = call.added;
      ledger.usages.push(call.response.usage);
      ledger.responses.push({ at: call.added.length, response: call.response });
      if (call.replayed) return; // charged when the journal was opened
      const cost = s.deps.price(options.modelName, call.response.usage);
      const seq = charge(s, call.response.usage, cost);
      if (ledger.slot !== null) rt.gate.settle(ledger.slot, cost);
      ledger.slot = null;
      ledger.paid += 1;
      applyChange(s, { type: "api-answered" });
      // A task run's record carries the charge before any tool of this response runs.
      await rt.taskRun?.charged(cost);
      await rt.journal?.record({
        seq,
        instance: key,
        digest: requestDigest(call.request),
        costUsd: cost,
        at: now(s),
        response: call.response,
      });
      // After every charge, so no cap is passed by more than one call: the next boundary of
      // every turn stops on it.
      const breach = breachedCap(s.job, s.config.caps);
      if (breach !== null && breach.cap === "costUsd") {
        progress(s, key, "CAP", `${describeBreach(breach)}: turns stop at their next call`);
      }
    },
  };
  return { boundary, ledger };
}

function overCost(s: JobRecords): BeforeCall {
  const breach = breachedCap(s.job, s.config.caps) ?? {
    cap: "costUsd" as const,
    limit: s.config.caps.costUsd,
    value: s.job.costUsd,
  };
  return { kind: "stop", cause: "cap", reason: describeBreach(breach) };
}

export function timeoutReason(key: string, ranMs: number, limitMs: number): string {
  return `turn timeout: ${key} ran ${Math.round(ranMs / 1000)} s, over limits.turnTimeoutSeconds (${Math.round(limitMs / 1000)} s)`;
}
