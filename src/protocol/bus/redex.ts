// Rule names and redexes. Every reduction rule of seed 000 §5–§9 has one name here, plus four
// extensions where the seed is silent (marked below), each needed for a property §12 states.

import type { Content, Molecule, Payload, Policy } from "./molecules.js";

export const SEED_RULES = [
  // §5
  "send",
  "spark",
  "send-terminate",
  "send-empty",
  "wake",
  "send-step",
  "nosend-step",
  // §7
  "ask-step",
  "ask",
  "escalate",
  "human-reply",
  "respond",
  // §8
  "interrupt",
  "wake-int",
  // §9
  "term-run",
  "term-idle",
  "term-mbox",
  "term-send",
  "cascade",
  "term-final",
] as const;

/**
 * Extensions. [send-refuse]: §6 says an invalid Send does not reduce; without a rule to drop
 * the refused payload its instance could never return to Idle. [term-ask], [term-proxy],
 * [term-int]: AskQuestion, Proxy/AskHuman and Interrupt molecules are thread-tagged too, and
 * [term-final] waits for every t-tagged molecule to go (§12 "Cascade completeness").
 * [send-block], [unblock], [term-blocked]: §13's spark "blocked until the parent closes an
 * existing conversation" (issue 11 point 3) — the blocked spark leaves the Send as a
 * Blocked molecule, so its sender is not wedged, and starts when a slot frees.
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

export const RULE_NAMES = [...SEED_RULES, ...EXTENSION_RULES] as const;
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

/** The choice a rule's RHS carries, supplied by whoever fires it (seed 000 §5, §7). */
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
