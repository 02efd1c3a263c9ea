// Applies one durable log event to a store holding the soup's durable projection
// (docs/protocol.md#persistence): Runs never appear (their consumption lands with `turn-end`),
// everything else is as the rules left it. This is an interpreter of the log independent of the
// rules, so "fold of the log equals the durable soup" is a real check of both.

import { addressKey, type Address } from "../address.js";
import { canonicalLine } from "../canonical-json.js";
import { BusLogError } from "./errors.js";
import type { BusEvent, BusEventOf } from "./events.js";
import {
  escalationThread,
  type Consumed,
  type Content,
  type InstanceMolecule,
  type MailboxMolecule,
  type Payload,
  type TerminateMode,
} from "./molecules.js";
import { untagged } from "./rules/tagged.js";
import type { Store } from "./store.js";

/** Applies events to `s` in log order; one Replay serves every line (fold replays 100k). */
export function replayer(s: Store): (e: BusEvent, line: number) => void {
  const r = new Replay(s);
  return (e, line) => {
    r.type = e.type;
    r.line = line;
    applyEvent(s, e, r);
  };
}

function applyEvent(s: Store, e: BusEvent, r: Replay): void {
  // The four kinds of nearly every line first: a switch on strings tests its cases in order.
  switch (e.type) {
    case "wake":
      return; // informational: a Run is transient
    case "turn-end":
      return turnEnd(s, e, r);
    case "deliver": {
      const from = r.slot(e.from);
      r.popSend(e.from, e.to, from);
      const to = r.slot(e.to);
      const mailbox = r.mailbox(to) ?? r.fail(`no mailbox ${to.key}`);
      s.appendMail(mailbox, e.content);
      r.see(to, from.key);
      return;
    }
    case "send-empty": {
      const slot = r.slot(e.a);
      const send = r.stateOf(e.a, "Send", slot);
      if (send.msgs.length > 0) r.fail(`${slot.key}'s Send is not empty`);
      r.replaceState(slot, send, { kind: "Idle", a: send.a });
      return;
    }
    case "root": {
      if (s.threads.has(e.a.thread)) r.fail(`thread ${e.a.thread} exists`);
      s.openInstanceThread(e.a.thread, null);
      s.addMailbox({ kind: "Mailbox", a: e.a, queue: e.first === undefined ? [] : [e.first] });
      s.addState({ kind: "Idle", a: e.a });
      return;
    }
    case "spark": {
      if (s.threads.has(e.to.thread)) r.fail(`thread ${e.to.thread} exists`);
      if (e.parent !== e.from.thread) r.fail(`parent ${e.parent} is not the sender's thread`);
      r.popSend(e.from, e.to);
      s.startInstance(e.from, e.to, e.content);
      return;
    }
    case "refuse":
      return r.popPayload(e.from, e.payload);
    case "block": {
      if (s.threads.has(e.to.thread)) r.fail(`thread ${e.to.thread} exists`);
      r.popSend(e.from, e.to);
      s.addBlocked({ kind: "Blocked", a: e.from, to: e.to, content: e.content });
      return;
    }
    case "unblock": {
      if (e.parent !== e.from.thread) r.fail(`parent ${e.parent} is not the sender's thread`);
      const head = s.blocked.get(e.parent)?.[0];
      if (head === undefined || head.to.agent !== e.to.agent || head.to.thread !== e.to.thread) {
        r.fail(`${addressKey(e.to)} is not the first spark waiting under ${e.parent}`);
      }
      if (!s.unblockable(head)) r.fail(`${e.parent} has no free slot`);
      s.removeBlocked(head);
      s.startInstance(e.from, e.to, e.content);
      return;
    }
    case "term-blocked": {
      r.terminateOn(e.from.thread);
      const m =
        s.blocked
          .get(e.from.thread)
          ?.find((b) => b.to.agent === e.to.agent && b.to.thread === e.to.thread) ??
        r.fail(`no spark of ${addressKey(e.to)} waits under ${e.from.thread}`);
      s.removeBlocked(m);
      s.terminated.add(e.to.thread);
      return;
    }
    case "ask": {
      const asked = r.stateOf(e.caller, "AskQuestion");
      if (asked.id !== e.id) r.fail(`${addressKey(e.caller)} asked "${asked.id}", not "${e.id}"`);
      const thread = escalationThread(e.id);
      s.replaceState(asked, { kind: "Idle", a: asked.a });
      s.addEscalation({
        kind: "Proxy",
        id: e.id,
        caller: e.caller,
        question: e.question,
        policy: e.policy,
        h: "fresh",
      });
      s.addParent({ kind: "Parent", child: thread, parent: e.caller.thread });
      s.linkEscalation(thread, e.caller.thread);
      return;
    }
    case "escalate": {
      const proxy = escalation(s, e.id, "Proxy", r);
      if (proxy.policy === "never") r.fail(`escalation "${e.id}" is under policy never`);
      const { id, caller, policy } = proxy;
      s.replaceEscalation(proxy, { kind: "AskHuman", id, caller, framed: e.framed, policy });
      return;
    }
    case "human-reply": {
      const waiting = escalation(s, e.id, "AskHuman", r);
      const { id, caller, policy } = waiting;
      s.replaceEscalation(waiting, {
        kind: "Proxy",
        id,
        caller,
        question: e.reply,
        policy,
        h: "post-human",
      });
      return;
    }
    case "respond": {
      const proxy = escalation(s, e.id, "Proxy", r);
      if (proxy.policy === "always" && proxy.h === "fresh") r.fail(`"${e.id}" needs a human reply`);
      const key = addressKey(proxy.caller);
      const mailbox = s.mailbox(key) ?? r.fail(`no mailbox ${key}`);
      s.removeEscalation(proxy);
      s.appendMail(mailbox, e.answer);
      return;
    }
    case "interrupt":
      r.liveThread(e.thread);
      s.addInterrupt({ kind: "Interrupt", thread: e.thread, content: e.content });
      return;
    case "terminate": {
      const origin = e.origin;
      switch (origin.rule) {
        case "external":
          r.liveThread(e.thread);
          return r.place(e.thread, e.mode);
        case "send-terminate": {
          r.popPayload(origin.by, { kind: "terminate", thread: e.thread });
          const edge = s.parents.get(e.thread)?.find((p) => p.parent === origin.by.thread);
          if (edge === undefined) r.fail(`${e.thread} is not a child of ${origin.by.thread}`);
          r.liveThread(e.thread);
          return r.place(e.thread, e.mode);
        }
        case "cascade": {
          r.terminateOn(origin.parent);
          const edge =
            s.parents.get(e.thread)?.find((p) => p.parent === origin.parent) ??
            r.fail(`no Parent(${e.thread}, ${origin.parent})`);
          s.removeParent(edge);
          if (!s.terminated.has(e.thread)) r.place(e.thread, e.mode);
          return;
        }
        default: {
          const never: never = origin;
          return r.fail(`unknown origin ${JSON.stringify(never)}`);
        }
      }
    }
    case "term-run": {
      // The projection holds the Idle the Run woke from, and what it consumed.
      r.terminateOn(e.a.thread);
      s.removeState(r.stateOf(e.a, "Idle"));
      consume(s, e.a, addressKey(e.a), e.consumed, r);
      return;
    }
    case "term-idle":
      r.terminateOn(e.a.thread);
      return s.removeState(r.stateOf(e.a, "Idle"));
    case "term-send":
      r.terminateOn(e.a.thread);
      return s.removeState(r.stateOf(e.a, "Send"));
    case "term-ask":
      r.terminateOn(e.a.thread);
      return s.removeState(r.stateOf(e.a, "AskQuestion"));
    case "term-mbox": {
      r.terminateOn(e.a.thread);
      const mailbox = s.mailbox(addressKey(e.a)) ?? r.fail(`no mailbox ${addressKey(e.a)}`);
      return s.removeMailbox(mailbox);
    }
    case "term-proxy": {
      r.terminateOn(escalationThread(e.id));
      const m = s.escalations.get(e.id)?.[0] ?? r.fail(`no pending escalation "${e.id}"`);
      return s.removeEscalation(m);
    }
    case "term-int": {
      r.terminateOn(e.thread);
      const int =
        s.interrupts.get(e.thread)?.find((m) => sameContent(m.content, e.content)) ??
        r.fail(`no such Interrupt on ${e.thread}`);
      return s.removeInterrupt(int);
    }
    case "term-final": {
      const term = s.terminates.get(e.thread)?.[0] ?? r.fail(`no Terminate on ${e.thread}`);
      if (!untagged(s, e.thread)) r.fail(`molecules tagged ${e.thread} remain`);
      return s.removeTerminate(term);
    }
    case "outcome":
    case "transition":
    case "verdict":
    case "paused":
    case "resumed":
      return; // audit entries: collected by fold
    default: {
      const never: never = e;
      return r.fail(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

function turnEnd(s: Store, e: BusEventOf<"turn-end">, r: Replay): void {
  const slot = r.slot(e.a);
  const key = slot.key;
  const idle = r.state(slot);
  if (idle?.kind !== "Idle") r.fail(`${key} is ${idle?.kind ?? "absent"}, not Idle`);
  consume(s, e.a, key, e.consumed, r, slot);
  const a = (idle as InstanceMolecule).a;
  switch (e.rule) {
    case "nosend-step":
      return;
    case "send-step": {
      const msgs = e.payloads ?? r.fail("send-step without payloads");
      return r.replaceState(slot, idle as InstanceMolecule, { kind: "Send", a, msgs });
    }
    case "ask-step": {
      const ask = e.ask ?? r.fail("ask-step without ask");
      const thread = escalationThread(ask.id);
      if (s.threads.has(thread)) r.fail(`escalation id "${ask.id}" is taken`);
      s.openEscalationThread(thread, ask.id);
      return r.replaceState(slot, idle as InstanceMolecule, { kind: "AskQuestion", a, ...ask });
    }
    default: {
      const never: never = e.rule;
      return r.fail(`unknown turn-end rule ${String(never)}`);
    }
  }
}

/** Makes a Run's consumption durable: the mailbox head and the Interrupts it took. */
function consume(
  s: Store,
  a: Address,
  key: string,
  consumed: Consumed[],
  r: Replay,
  slot?: Slot,
): void {
  for (const c of consumed) {
    if (c.from === "mailbox") {
      // A mailbox flushed by [term-mbox] mid-Run has already lost the message.
      const mailbox = slot === undefined ? s.mailbox(key) : r.mailbox(slot);
      if (mailbox === undefined) continue;
      const head = mailbox.queue[0];
      if (head === undefined || !sameContent(head, c.content)) {
        r.fail(`${key}'s mailbox head is another message`);
      }
      s.takeMail(mailbox);
      continue;
    }
    const int =
      s.interrupts.get(a.thread)?.find((m) => sameContent(m.content, c.content)) ??
      r.fail(`no such Interrupt on ${a.thread}`);
    s.removeInterrupt(int);
  }
}

function escalation<K extends "Proxy" | "AskHuman">(s: Store, id: string, kind: K, r: Replay) {
  const m = s.escalations.get(id)?.[0];
  if (m?.kind !== kind) r.fail(`escalation "${id}" is ${m?.kind ?? "absent"}, expected ${kind}`);
  return m as Extract<NonNullable<typeof m>, { kind: K }>;
}

/** Content equality without serialising: fold compares one per consumed message. */
function sameContent(x: Content, y: Content): boolean {
  if (x === y) return true;
  if (x.kind !== y.kind || x.text !== y.text) return false;
  if (x.from?.agent !== y.from?.agent || x.from?.thread !== y.from?.thread) return false;
  if (x.data === undefined && y.data === undefined) return true;
  return canonicalLine(x.data ?? null) === canonicalLine(y.data ?? null);
}

function samePayload(x: Payload, y: Payload): boolean {
  if (x.kind === "terminate" || y.kind === "terminate") {
    return (
      x.kind === y.kind && (x as { thread: string }).thread === (y as { thread: string }).thread
    );
  }
  return (
    x.to.agent === y.to.agent && x.to.thread === y.to.thread && sameContent(x.content, y.content)
  );
}

/** One instance as the fold knows it (Replay.slot). */
interface Slot {
  agent: string;
  key: string;
  /** The store's bags of its state and mailbox, once looked up (Replay.state). */
  states: InstanceMolecule[] | undefined;
  mailboxes: MailboxMolecule[] | undefined;
  /** Its visibility set in the store, once made, and the last key added to it. */
  seen: Set<string> | undefined;
  lastSeen: string | undefined;
}

/** The line being replayed, and the checks every event makes against the store. */
class Replay {
  type = "";
  line = 0;
  private readonly slots = new Map<string, Slot>();
  private readonly moreSlots = new Map<string, Map<string, Slot>>();

  constructor(private readonly s: Store) {}

  fail(detail: string): never {
    throw new BusLogError(this.line, `${this.type}: ${detail}`);
  }

  stateOf<K extends InstanceMolecule["kind"]>(a: Address, kind: K, slot = this.slot(a)) {
    const m = this.state(slot);
    if (m?.kind !== kind) this.fail(`${slot.key} is ${m?.kind ?? "absent"}, expected ${kind}`);
    return m as Extract<InstanceMolecule, { kind: K }>;
  }

  /**
   * The instance at `a` as the fold knows it: its key — the same string all through the fold
   * (a key built afresh for every lookup is a new string to flatten and hash each time, and
   * the fold looks up several per line) — and its bags, looked up once and kept while they
   * last.
   */
  slot(a: Address): Slot {
    // Most threads have one instance: one lookup by thread, then the agent compared.
    const known = this.slots.get(a.thread);
    if (known !== undefined && known.agent === a.agent) return known;
    let more = this.moreSlots.get(a.thread);
    const other = more?.get(a.agent);
    if (other !== undefined) return other;
    const slot: Slot = {
      agent: a.agent,
      key: addressKey(a),
      states: undefined,
      mailboxes: undefined,
      seen: undefined,
      lastSeen: undefined,
    };
    if (known === undefined) this.slots.set(a.thread, slot);
    else {
      if (more === undefined) this.moreSlots.set(a.thread, (more = new Map()));
      more.set(a.agent, slot);
    }
    return slot;
  }

  key(a: Address): string {
    return this.slot(a).key;
  }

  /**
   * The instance's state. The store keeps each bag as one array, changed in place while it
   * holds anything and dropped once empty (store.ts bagRemove): a kept bag that is empty may
   * have been replaced, so it is looked up again.
   */
  state(slot: Slot): InstanceMolecule | undefined {
    let bag = slot.states;
    if (bag === undefined || bag.length === 0) slot.states = bag = this.s.states.get(slot.key);
    return bag?.[0];
  }

  mailbox(slot: Slot): MailboxMolecule | undefined {
    let bag = slot.mailboxes;
    if (bag === undefined || bag.length === 0)
      slot.mailboxes = bag = this.s.mailboxes.get(slot.key);
    return bag?.[0];
  }

  /** store.replaceState, with the bag `state` found. */
  replaceState(slot: Slot, old: InstanceMolecule, next: InstanceMolecule): void {
    const bag = slot.states;
    if (bag !== undefined && bag.length > 0) this.s.replaceStateIn(bag, old, next, slot.key);
    else this.s.replaceState(old, next, slot.key);
  }

  /**
   * store.see: the viewer's set (never dropped) kept once made, and the key it last took —
   * an instance mostly hears from one other (a worker from its lead): no lookup then.
   */
  see(viewer: Slot, seen: string): void {
    if (viewer.lastSeen === seen) return;
    viewer.lastSeen = seen;
    if (viewer.seen !== undefined) {
      viewer.seen.add(seen);
      return;
    }
    this.s.see(viewer.key, seen);
    viewer.seen = this.s.visibility.get(viewer.key);
  }

  /** Drops the head payload of a's Send, which must be a delivery to `to`. */
  popSend(a: Address, to: Address, slot = this.slot(a)): void {
    const send = this.stateOf(a, "Send", slot);
    const head = send.msgs[0];
    const ok =
      head !== undefined &&
      head.kind === "deliver" &&
      head.to.agent === to.agent &&
      head.to.thread === to.thread;
    if (!ok) this.fail(`${slot.key}'s Send has another head`);
    this.replaceState(slot, send, { kind: "Send", a: send.a, msgs: send.msgs.slice(1) });
  }

  /** Drops the head payload of a's Send, which must be `payload`. */
  popPayload(a: Address, payload: Payload): void {
    const slot = this.slot(a);
    const send = this.stateOf(a, "Send", slot);
    const head = send.msgs[0];
    if (head === undefined || !samePayload(head, payload))
      this.fail(`${slot.key}'s Send has another head`);
    this.replaceState(slot, send, { kind: "Send", a: send.a, msgs: send.msgs.slice(1) });
  }

  liveThread(thread: string): void {
    if (!this.s.threads.has(thread)) this.fail(`no thread ${thread}`);
    if (this.s.terminated.has(thread)) this.fail(`thread ${thread} is terminated`);
  }

  place(thread: string, mode: TerminateMode): void {
    this.s.addTerminate({ kind: "Terminate", thread, mode });
    this.s.markTerminated(thread);
  }

  terminateOn(thread: string): void {
    if (!this.s.terminates.has(thread)) this.fail(`no Terminate on ${thread}`);
  }
}
