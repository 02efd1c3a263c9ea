// Rule names and redexes. Every reduction rule of the protocol has one name here (as
// docs/protocol.md names it), plus cfa-bot's own rules where the protocol is silent (marked
// below), each needed for an invariant (docs/protocol.md#invariants).

import type { Content, Molecule, Payload, Policy } from "./molecules.js";

export const PROTOCOL_RULES = [
  // docs/protocol.md#message-soup
  "send",
  "spark",
  "send-terminate",
  "send-empty",
  "wake",
  "send-step",
  "nosend-step",
  // docs/protocol.md#escalation
  "ask-step",
  "ask",
  "escalate",
  "human-reply",
  "respond",
  // docs/protocol.md#intervention
  "interrupt",
  "wake-int",
  // docs/protocol.md#withdrawal
  "term-run",
  "term-idle",
  "term-mbox",
  "term-send",
  "cascade",
  "term-final",
] as const;

/**
 * Extensions. [send-refuse]: an invalid Send does not reduce (docs/protocol.md#dispatch);
 * without a rule to drop the refused payload its instance could never return to Idle.
 * [term-ask], [term-proxy], [term-int]: AskQuestion, Proxy/AskHuman and Interrupt molecules
 * are thread-tagged too, and [term-final] waits for every t-tagged molecule to go (cascade
 * completeness). [send-block], [unblock], [term-blocked]: a spark past the fan-out cap waits
 * until the parent closes a child (docs/protocol.md#configuration) — the blocked spark leaves
 * the Send as a Blocked molecule, so its sender is not wedged, and starts when a slot frees.
 */
export const EXTENSION_RULES = [
  "send-refuse",
  "term-ask",
  "term-proxy",
  "term-int",
  "send-block",
  "unblock",
  "term-blocked",
] as const;

export const RULE_NAMES = [...PROTOCOL_RULES, ...EXTENSION_RULES] as const;
export type RuleName = (typeof RULE_NAMES)[number];

/** Rules with no choice in their RHS: `endTurn` and friends drain these to rest. */
export const DETERMINISTIC_RULES = [
  "send",
  "spark",
  "send-terminate",
  "send-empty",
  "send-refuse",
  "send-block",
  "unblock",
  "ask",
  "term-run",
  "term-idle",
  "term-mbox",
  "term-send",
  "term-ask",
  "term-proxy",
  "term-int",
  "term-blocked",
  "cascade",
  "term-final",
] as const satisfies readonly RuleName[];

/** A rule instance whose LHS matches now: the rule and the molecules its LHS matched. */
export interface Redex {
  rule: RuleName;
  molecules: readonly Molecule[];
}

/** The choice a rule's RHS carries, supplied by whoever fires it (the agent's own). */
export interface RuleInputs {
  "send-step": Payload[];
  "ask-step": { id: string; question: Content; policy: Policy };
  escalate: Content;
  "human-reply": Content;
  respond: Content;
}
export type RuleWithInput = keyof RuleInputs;
export type InputOf<R extends RuleName> = R extends RuleWithInput ? RuleInputs[R] : undefined;

export const isRuleName = (value: unknown): value is RuleName =>
  typeof value === "string" && (RULE_NAMES as readonly string[]).includes(value);
