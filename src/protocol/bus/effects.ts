// What a step asks the engine to do. Rules run no effects (docs/contributing.md, "Conventions"): they
// return them, and the engine performs them after the step's batch is durably appended.

import type { Address } from "../address.js";
import type { BusEvent } from "./events.js";
import type { Content, Payload, Policy, ProxyHistory, TerminateMode } from "./molecules.js";
import type { Rejection } from "./rejection.js";
import type { WithdrawAnswer } from "./withdraw-answer.js";

export type Effect =
  /**
   * A spark installs the protocol surface (docs/protocol.md#dispatch): provision the new (A, t')
   * instance (workspace, tools, visible team) and let it run on its first message.
   */
  | { kind: "spark"; a: Address; parent: string; from: Address; first: Content }
  /**
   * A [term-*] rule consumed an instance; merge (a close) or drop (a withdraw) its workspace
   * into `parent`'s (docs/protocol.md#workspaces). Released children come before their parent.
   */
  | {
      kind: "release";
      a: Address;
      mode: TerminateMode;
      parent: string | null;
      rule: "term-run" | "term-idle" | "term-send" | "term-ask";
    }
  /** A Proxy is waiting for the proxy agent (after [ask] or [human-reply]). */
  | {
      kind: "proxy-turn";
      id: string;
      caller: Address;
      question: Content;
      policy: Policy;
      h: ProxyHistory;
    }
  /** [escalate]: post the framed question to the human. */
  | { kind: "ask-human"; id: string; caller: Address; framed: Content; policy: Policy }
  /** [respond]: the answer is in the caller's mailbox; `withdraw` when it carries the marker. */
  | {
      kind: "answered";
      id: string;
      caller: Address;
      answer: Content;
      withdraw: WithdrawAnswer | null;
    }
  /** [term-proxy]: a pending escalation was withdrawn by a cascade; retract its question. */
  | { kind: "cancelled"; id: string; caller: Address }
  /** [send-refuse]: an invalid payload did not reduce; tell its sender. */
  | { kind: "refused"; from: Address; payload: Payload; rejection: Rejection }
  /** [send-block]: a spark waits under the fan-out cap, `queued`-th in its parent's queue. */
  | { kind: "blocked"; from: Address; to: Address; content: Content; queued: number }
  /** [term-blocked]: a waiting spark was withdrawn with its parent; it never starts. */
  | { kind: "blocked-dropped"; from: Address; to: Address };

/** What one step (or one convenience call) produced. */
export interface StepResult {
  /** The durable log lines of this step, in order: append them as one batch. */
  events: BusEvent[];
  effects: Effect[];
}

export const emptyStep = (): StepResult => ({ events: [], effects: [] });
