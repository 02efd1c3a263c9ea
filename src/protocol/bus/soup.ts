// The soup (docs/protocol.md#message-soup): a deterministic in-memory multiset of molecules with
// indexes. `enabled()` lists every rule instance whose LHS matches; `fire()` fires one. The
// engine-facing calls below (wake, endTurn, terminate, …) are built only from those rules: each
// fires rules and returns the events and effects they produced.

import { addressKey, parseAddressKey, type Address } from "../address.js";
import { canonicalLine } from "../canonical-json.js";
import { emptyStep, type StepResult } from "./effects.js";
import { BusRuleError, BusUsageError } from "./errors.js";
import {
  MOLECULE_KINDS,
  type BlockedMolecule,
  type Content,
  type EscalationMolecule,
  type InstanceMolecule,
  type Molecule,
  type Payload,
  type Policy,
  type RunMolecule,
  type TerminateMode,
} from "./molecules.js";
import { isRuleName, type InputOf, type Redex, type RuleName } from "./redex.js";
import type { Rejection } from "./rejection.js";
import { blockedPayloads, checkPayloads } from "./routing.js";
import { durableProjection } from "./durable-projection.js";
import { ANCHORS, RULES, type Anchor, type Rule } from "./rules/index.js";
import type { SoupSnapshot } from "./soup-snapshot.js";
import { storeFromSnapshot } from "./store-from-snapshot.js";
import { DEFAULT_FAN_OUT_CAP, Store } from "./store.js";

export interface SoupOptions {
  /** Live children per parent thread; a spark beyond it waits ([send-block]). */
  fanOutCap?: number;
}

/** How a Run ended, as the agent's logic chose. */
export type TurnResult =
  | { rule: "send-step"; payloads: Payload[] }
  | { rule: "nosend-step" }
  | { rule: "ask-step"; id: string; question: Content; policy: Policy };

export interface WakeResult extends StepResult {
  /** The message the Run is on. */
  message: Content;
  rule: "wake" | "wake-int" | "interrupt";
}

const RULES_BY_ANCHOR: Record<Anchor, Rule[]> = Object.fromEntries(
  ANCHORS.map((anchor) => [anchor, Object.values(RULES).filter((r) => r.anchor === anchor)]),
) as Record<Anchor, Rule[]>;

/** [terminate] drain order: cascade first, so children are released before their parent. */
const TERMINATION_ORDER: Rule[] = [
  RULES.cascade,
  RULES["term-send"],
  RULES["term-run"],
  RULES["term-ask"],
  RULES["term-idle"],
  RULES["term-mbox"],
  RULES["term-int"],
  RULES["term-proxy"],
  RULES["term-blocked"],
  RULES["term-final"],
] as Rule[];

const SEND_RULES: Rule[] = [
  RULES.send,
  RULES.spark,
  RULES["send-block"],
  RULES["send-terminate"],
  RULES["send-empty"],
  RULES["send-refuse"],
] as Rule[];

export class Soup {
  /** @internal The storage; fold and the projection write it through its primitives. */
  readonly store: Store;

  constructor(options: SoupOptions | Store = {}) {
    this.store =
      options instanceof Store ? options : new Store(options.fanOutCap ?? DEFAULT_FAN_OUT_CAP);
  }

  get fanOutCap(): number {
    return this.store.fanOutCap;
  }

  // ---- the rule system ----

  /** Every rule instance whose LHS matches now (rule name + the molecules it matched). */
  enabled(): Redex[] {
    const s = this.store;
    const out: Redex[] = [];
    const at = (anchor: Anchor, m: Molecule | undefined) => {
      if (m === undefined) return;
      for (const rule of RULES_BY_ANCHOR[anchor]) out.push(...rule.match(s, m));
    };
    for (const key of s.sends) at("Send", s.state(key));
    for (const key of s.ready) at("Ready", s.state(key));
    for (const key of s.runs) at("Run", s.state(key));
    for (const key of s.asks) at("AskQuestion", s.state(key));
    for (const bag of s.escalations.values()) for (const m of bag) at("Escalation", m);
    for (const bag of s.blocked.values()) for (const m of bag) at("Blocked", m);
    for (const bag of s.terminates.values()) for (const m of bag) at("Terminate", m);
    return out;
  }

  /** Fires one enabled redex; throws BusRuleError if its LHS does not match now. */
  fire<R extends RuleName>(redex: Redex & { rule: R }, input?: InputOf<R>): StepResult {
    if (!isRuleName(redex.rule)) {
      throw new BusUsageError(`unknown rule "${String(redex.rule)}"`);
    }
    const rule = RULES[redex.rule] as Rule;
    const anchor = redex.molecules[0];
    const present = anchor === undefined ? undefined : this.present(anchor);
    if (present === undefined) {
      throw new BusRuleError(redex.rule, "its molecules are not in the soup");
    }
    const match = rule
      .match(this.store, present)
      .find((candidate) => sameMolecules(candidate.molecules, redex.molecules));
    if (match === undefined) throw new BusRuleError(redex.rule, "its LHS does not match");
    const out = emptyStep();
    rule.fire(this.store, match, input as never, out);
    return out;
  }

  /** Would `payload` from `sender` reduce, after the `pending` ones before it? */
  check(sender: Address, payload: Payload, pending: readonly Payload[] = []): Rejection | null {
    return checkPayloads(this.store, sender, [...pending, payload]).at(-1) ?? null;
  }

  /** Each payload's rejection (or null), in order, as one Send would meet them. */
  checkAll(sender: Address, payloads: readonly Payload[]): (Rejection | null)[] {
    return checkPayloads(this.store, sender, payloads);
  }

  /**
   * Would `payload` from `sender`, after the `pending` ones before it, be a
   * spark that waits under the fan-out cap ([send-block]) rather than starting at once?
   */
  blocks(sender: Address, payload: Payload, pending: readonly Payload[] = []): boolean {
    return blockedPayloads(this.store, sender, [...pending, payload]).at(-1) ?? false;
  }

  /** Sparks waiting under `thread`'s fan-out cap, oldest first. */
  blockedUnder(thread: string): BlockedMolecule[] {
    return [...(this.store.blocked.get(thread) ?? [])];
  }

  // ---- engine-facing calls, each only firing the rules above ----

  /** Places the orchestrator's instance on the job thread: the root, with no parent. */
  root(address: Address, first?: Content): StepResult {
    const s = this.store;
    const a = { agent: address.agent, thread: address.thread };
    if (s.threads.has(a.thread)) {
      throw new BusUsageError(`thread ${a.thread} already exists; a root needs a fresh thread`);
    }
    s.openInstanceThread(a.thread, null);
    s.addMailbox({ kind: "Mailbox", a, queue: first === undefined ? [] : [first] });
    s.addState({ kind: "Idle", a });
    return {
      events: [first === undefined ? { type: "root", a } : { type: "root", a, first }],
      effects: [],
    };
  }

  /** Idle instances with mail or a pending Interrupt: those `wake` can start. */
  runnable(): Address[] {
    const out: Address[] = [];
    for (const key of this.store.ready) {
      const s = this.store.state(key);
      if (s !== undefined) out.push(s.a);
    }
    return out;
  }

  /** Fires [wake-int] if an Interrupt is pending on a's thread, else [wake]. */
  wake(a: Address): WakeResult {
    const idle = this.instanceState(a, "Idle", "wake");
    const out = emptyStep();
    const rule = (this.store.interrupts.get(a.thread)?.length ?? 0) > 0 ? "wake-int" : "wake";
    this.fireFirstOf(RULES[rule] as Rule, idle, out, `${addressKey(a)} has no mail`);
    const run = this.store.state(addressKey(a)) as RunMolecule;
    return { ...out, message: run.msg, rule };
  }

  /** Fires [interrupt]: the Run on a abandons its message for the oldest pending Interrupt. */
  preempt(a: Address): WakeResult {
    const run = this.instanceState(a, "Run", "interrupt");
    const out = emptyStep();
    this.fireFirstOf(RULES.interrupt as Rule, run, out, `no Interrupt on ${a.thread}`);
    const next = this.store.state(addressKey(a)) as RunMolecule;
    return { ...out, message: next.msg, rule: "interrupt" };
  }

  /** Ends a's Run as the agent chose, then drains every deterministic rule to rest. */
  endTurn(a: Address, result: TurnResult): StepResult {
    const run = this.instanceState(a, "Run", result.rule);
    const out = emptyStep();
    const redex = { rule: result.rule, molecules: [run] };
    switch (result.rule) {
      case "send-step":
        RULES["send-step"].fire(this.store, redex, result.payloads, out);
        break;
      case "nosend-step":
        RULES["nosend-step"].fire(this.store, redex, undefined, out);
        break;
      case "ask-step": {
        const { id, question, policy } = result;
        RULES["ask-step"].fire(this.store, redex, { id, question, policy }, out);
        break;
      }
      default: {
        const never: never = result;
        throw new BusUsageError(`unknown turn result ${JSON.stringify(never)}`);
      }
    }
    this.drain(out);
    return out;
  }

  /** Places Interrupt(thread, content) (an intervention); the next wake on thread runs on it. */
  interrupt(thread: string, content: Content): StepResult {
    this.liveThread(thread, "interrupt");
    this.store.addInterrupt({ kind: "Interrupt", thread, content });
    return { events: [{ type: "interrupt", thread, content }], effects: [] };
  }

  /** Places Terminate(thread, mode) from outside (a withdraw, a state's close), then drains. */
  terminate(thread: string, mode: TerminateMode): StepResult {
    this.liveThread(thread, "terminate");
    this.store.addTerminate({ kind: "Terminate", thread, mode });
    this.store.markTerminated(thread);
    const out: StepResult = {
      events: [{ type: "terminate", thread, mode, origin: { rule: "external" } }],
      effects: [],
    };
    this.drain(out);
    return out;
  }

  /** Fires [escalate] on escalation `id` with the proxy's framed question. */
  escalate(id: string, framed: Content): StepResult {
    return this.fireOnEscalation(id, "escalate", framed);
  }

  /** Fires [human-reply] on escalation `id`. */
  humanReply(id: string, reply: Content): StepResult {
    return this.fireOnEscalation(id, "human-reply", reply);
  }

  /** Fires [respond] on escalation `id`: the answer lands in the caller's mailbox. */
  respond(id: string, answer: Content): StepResult {
    return this.fireOnEscalation(id, "respond", answer);
  }

  /** Drains every deterministic rule to rest (e.g. after fold of a log written per step). */
  settle(): StepResult {
    const out = emptyStep();
    this.drain(out);
    return out;
  }

  // ---- queries ----

  pendingEscalations(): EscalationMolecule[] {
    return [...this.store.escalations.values()].flat();
  }

  /** Threads with a Parent edge to `thread` (closed children keep theirs until a cascade). */
  children(thread: string): string[] {
    return [...(this.store.childrenOf.get(thread) ?? [])];
  }

  /** The thread `thread` was sparked (or asked) from, or null for a root. */
  parentOf(thread: string): string | null {
    return this.store.lineage.get(thread) ?? null;
  }

  /** Every live instance: those with a lifecycle state (Idle, Run, Send, AskQuestion). */
  instances(): Address[] {
    const out: Address[] = [];
    for (const bag of this.store.states.values()) if (bag[0] !== undefined) out.push(bag[0].a);
    return out;
  }

  stateOf(a: Address): InstanceMolecule["kind"] | null {
    return this.store.state(addressKey(a))?.kind ?? null;
  }

  mailbox(a: Address): Content[] {
    return [...(this.store.mailbox(addressKey(a))?.queue ?? [])];
  }

  isTerminated(thread: string): boolean {
    return this.store.terminated.has(thread);
  }

  /** The instances `a` may send to (its visibility, docs/protocol.md#dispatch). */
  visibleFrom(a: Address): Address[] {
    return [...(this.store.visibility.get(addressKey(a)) ?? [])].map(parseAddressKey);
  }

  isQuiescent(): boolean {
    return this.enabled().length === 0;
  }

  // ---- whole-soup values ----

  /** Every molecule, in a canonical order (kind, then canonical JSON). */
  molecules(): Molecule[] {
    const s = this.store;
    const all: Molecule[] = [];
    for (const bags of [s.states, s.mailboxes, s.parents, s.escalations, s.interrupts, s.blocked]) {
      for (const bag of bags.values()) all.push(...bag);
    }
    for (const bag of s.terminates.values()) all.push(...bag);
    const keyed = all.map((m) => {
      // The store changes mailboxes in place: hand out a copy.
      const out = m.kind === "Mailbox" ? { ...m, queue: m.queue.slice() } : m;
      return [MOLECULE_KINDS.indexOf(m.kind), canonicalLine(m), out] as const;
    });
    keyed.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
    return keyed.map(([, , m]) => m);
  }

  snapshot(): SoupSnapshot {
    const s = this.store;
    const sorted = <T>(entries: Iterable<[string, T]>) =>
      [...entries].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return {
      molecules: this.molecules(),
      visibility: sorted(
        [...s.visibility].map(([k, v]) => [k, [...v].sort()] as [string, string[]]),
      ),
      threads: sorted(s.threads),
      lineage: sorted(s.lineage),
      terminated: [...s.terminated].sort(),
    };
  }

  equals(other: Soup): boolean {
    return canonicalLine(this.snapshot()) === canonicalLine(other.snapshot());
  }

  clone(): Soup {
    return new Soup(this.store.clone());
  }

  /**
   * What the log preserves of this soup (docs/protocol.md#persistence). A Run is transient: it
   * becomes the Idle it woke from, with what it consumed back in the mailbox / as pending
   * Interrupts (a crash mid-Run loses that turn, not its input). Everything else is durable.
   */
  durable(): Soup {
    return new Soup(durableProjection(this.store));
  }

  /** A soup holding exactly these molecules and relations (tests, tools). */
  static from(
    snapshot: Partial<SoupSnapshot> & { molecules: Molecule[] },
    options: SoupOptions = {},
  ): Soup {
    return new Soup(storeFromSnapshot(snapshot, options.fanOutCap ?? DEFAULT_FAN_OUT_CAP));
  }

  // ---- internals ----

  private drain(out: StepResult): void {
    const s = this.store;
    for (;;) {
      const term = lastTerminate(s);
      if (term !== undefined) {
        this.fireFirstOf(TERMINATION_ORDER, term, out, "internal: a Terminate with no rule");
        continue;
      }
      const asked = firstState(s, s.asks);
      if (asked !== undefined) {
        this.fireFirstOf(RULES.ask as Rule, asked, out, "internal: an AskQuestion with no rule");
        continue;
      }
      const send = firstState(s, s.sends);
      if (send !== undefined) {
        this.fireFirstOf(SEND_RULES, send, out, "internal: a Send with no rule");
        continue;
      }
      // A slot freed by a close starts the oldest spark waiting for it ([unblock]).
      const blocked = firstUnblockable(s);
      if (blocked !== undefined) {
        this.fireFirstOf(RULES.unblock as Rule, blocked, out, "internal: no [unblock]");
        continue;
      }
      return;
    }
  }

  private fireFirstOf(rules: Rule | Rule[], anchor: Molecule, out: StepResult, none: string): void {
    for (const rule of Array.isArray(rules) ? rules : [rules]) {
      const redex = rule.match(this.store, anchor)[0];
      if (redex !== undefined) {
        rule.fire(this.store, redex, undefined as never, out);
        return;
      }
    }
    const name = Array.isArray(rules) ? (rules[0]?.name ?? "send") : rules.name;
    throw new BusRuleError(name, none);
  }

  private fireOnEscalation(
    id: string,
    rule: "escalate" | "human-reply" | "respond",
    input: Content,
  ): StepResult {
    const bag = this.store.escalations.get(id);
    if (bag === undefined) throw new BusUsageError(`no pending escalation "${id}"`);
    for (const m of bag) {
      const redex = RULES[rule].match(this.store, m)[0];
      if (redex === undefined) continue;
      const out = emptyStep();
      (RULES[rule] as Rule).fire(this.store, redex, input as never, out);
      return out;
    }
    const states = bag.map((m) => (m.kind === "Proxy" ? `Proxy(${m.policy}, ${m.h})` : m.kind));
    throw new BusRuleError(rule, `escalation "${id}" is ${states.join(", ")}`);
  }

  private instanceState<K extends InstanceMolecule["kind"]>(
    a: Address,
    kind: K,
    rule: RuleName,
  ): Extract<InstanceMolecule, { kind: K }> {
    const state = this.store.state(addressKey(a));
    if (state?.kind !== kind) {
      throw new BusRuleError(
        rule,
        `${addressKey(a)} is ${state?.kind ?? "not an instance"}, not ${kind}`,
      );
    }
    return state as Extract<InstanceMolecule, { kind: K }>;
  }

  private liveThread(thread: string, what: string): void {
    if (!this.store.threads.has(thread)) {
      throw new BusUsageError(`cannot ${what} thread ${thread}: no such thread`);
    }
    if (this.store.terminated.has(thread)) {
      throw new BusUsageError(`cannot ${what} thread ${thread}: it is terminated`);
    }
  }

  /** The molecule in the store equal to `m`, if any (by reference, else by value). */
  private present(m: Molecule): Molecule | undefined {
    const s = this.store;
    let bag: readonly Molecule[] | undefined;
    switch (m.kind) {
      case "Idle":
      case "Run":
      case "Send":
      case "AskQuestion":
        bag = s.states.get(addressKey(m.a));
        break;
      case "Proxy":
      case "AskHuman":
        bag = s.escalations.get(m.id);
        break;
      case "Terminate":
        bag = s.terminates.get(m.thread);
        break;
      case "Blocked":
        bag = s.blocked.get(m.a.thread);
        break;
      case "Mailbox":
      case "Parent":
      case "Interrupt":
        return undefined; // never the first molecule of a redex
      default: {
        const never: never = m;
        throw new BusUsageError(`unknown molecule ${JSON.stringify(never)}`);
      }
    }
    return bag?.find((candidate) => sameMolecule(candidate, m));
  }
}

function sameMolecule(x: Molecule, y: Molecule): boolean {
  return x === y || canonicalLine(x) === canonicalLine(y);
}

function sameMolecules(xs: readonly Molecule[], ys: readonly Molecule[]): boolean {
  return xs.length === ys.length && xs.every((x, i) => sameMolecule(x, ys[i] as Molecule));
}

function lastTerminate(s: Store): Molecule | undefined {
  let last: Molecule | undefined;
  for (const bag of s.terminates.values()) last = bag[0];
  return last;
}

function firstUnblockable(s: Store): Molecule | undefined {
  for (const bag of s.blocked.values()) {
    const head = bag[0];
    if (head !== undefined && s.unblockable(head)) return head;
  }
  return undefined;
}

function firstState(s: Store, keys: Set<string>): Molecule | undefined {
  for (const key of keys) return s.state(key);
  return undefined;
}
