// The shape every reduction rule has: where its LHS is anchored, how to find its matches there, and
// how to rewrite LHS → RHS. Each rule lives in its own file, named as in docs/protocol.md.

import { BusUsageError } from "../errors.js";
import type { StepResult } from "../effects.js";
import type { Content, Molecule } from "../molecules.js";
import type { InputOf, Redex, RuleName } from "../redex.js";
import type { Store } from "../store.js";

/**
 * The molecule kind a rule's matches are found from (one index each): a Send being drained,
 * an Idle with something to wake on, a Run, an AskQuestion, a Proxy/AskHuman, a Blocked
 * spark, a Terminate.
 */
export const ANCHORS = [
  "Send",
  "Ready",
  "Run",
  "AskQuestion",
  "Escalation",
  "Blocked",
  "Terminate",
] as const;
export type Anchor = (typeof ANCHORS)[number];

export interface Rule<R extends RuleName = RuleName> {
  readonly name: R;
  readonly anchor: Anchor;
  /** Every instance of the LHS that contains `anchor` and matches now; the anchor first. */
  match(store: Store, anchor: Molecule): Redex[];
  /** Rewrites a redex this store's `match` returned; appends the step's events and effects. */
  fire(store: Store, redex: Redex, input: InputOf<R>, out: StepResult): void;
}

/** The redex's i-th molecule, which `match` put there with this kind. */
export function part<K extends Molecule["kind"]>(
  redex: Redex,
  index: number,
  kind: K,
): Extract<Molecule, { kind: K }> {
  const m = redex.molecules[index];
  if (m === undefined || m.kind !== kind) {
    throw new Error(`cfa/bus: internal: [${redex.rule}] expected ${kind} at ${index}`);
  }
  return m as Extract<Molecule, { kind: K }>;
}

export function requireInput<T>(rule: RuleName, input: T | undefined, what: string): T {
  if (input === undefined) throw new BusUsageError(`[${rule}] needs its choice as input: ${what}`);
  return input;
}

/** [send] / [spark] stamp the sender on the content, so the recipient can answer it. */
export const stamp = (content: Content, from: { agent: string; thread: string }): Content => ({
  ...content,
  from: { agent: from.agent, thread: from.thread },
});
