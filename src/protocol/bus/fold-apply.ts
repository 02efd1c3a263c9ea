// Applies one durable log event to a store holding the soup's durable projection (seed 000
// §11): Runs never appear (their consumption lands with `turn-end`), everything else is as
// the rules left it. This is an interpreter of the log independent of the rules, so "fold of
// the log equals the durable soup" is a real check of both.

import { addressKey, type Address } from "../address.js";
import { canonicalLine } from "../canonical-json.js";
import { BusLogError } from "./errors.js";
import type { BusEvent, BusEventOf } from "./events.js";
import {
  escalationThread,
  type Consumed,
  type Content,
  type InstanceMolecule,
  type SendMolecule,
} from "./molecules.js";
import { untagged } from "./rules/tagged.js";
import type { Store } from "./store.js";

export function applyEvent(s: Store, e: BusEvent, line: number): void {
  const fail = (detail: string): never => {
    throw new BusLogError(line, `${e.type}: ${detail}`);
  };
  const stateOf = <K extends InstanceMolecule["kind"]>(a: Address, kind: K) => {
    const m = s.state(addressKey(a));
    if (m?.kind !== kind) fail(`${addressKey(a)} is ${m?.kind ?? "absent"}, expected ${kind}`);
    return m as Extract<InstanceMolecule, { kind: K }>;
  };
  /** Drops the head payload of a's Send, which must be what the event says it was. */
  const popSend = (a: Address, head: (send: SendMolecule) => boolean) => {
    const send = stateOf(a, "Send");
    if (send.msgs[0] === undefined || !head(send)) fail(`${addressKey(a)}'s Send has another head`);
    s.replaceState(send, { kind: "Send", a: send.a, msgs: send.msgs.slice(1) });
  };
  const deliversTo = (to: Address) => (send: SendMolecule) => {
    const p = send.msgs[0];
    return p?.kind === "deliver" && p.to.agent === to.agent && p.to.thread === to.thread;
  };
  const liveThread = (thread: string) => {
    if (!s.threads.has(thread)) fail(`no thread ${thread}`);
    if (s.terminated.has(thread)) fail(`thread ${thread} is terminated`);
  };
  const place = (thread: string, mode: "merge" | "drop") => {
    s.addTerminate({ kind: "Terminate", thread, mode });
    s.markTerminated(thread);
  };
  const terminateOn = (thread: string) => {
    if (!s.terminates.has(thread)) fail(`no Terminate on ${thread}`);
  };

  switch (e.type) {
    case "root": {
      if (s.threads.has(e.a.thread)) fail(`thread ${e.a.thread} exists`);
      s.openInstanceThread(e.a.thread, null);
      s.addMailbox({ kind: "Mailbox", a: e.a, queue: e.first === undefined ? [] : [e.first] });
      s.addState({ kind: "Idle", a: e.a });
      return;
    }
    case "spark": {
      if (s.threads.has(e.to.thread)) fail(`thread ${e.to.thread} exists`);
      if (e.parent !== e.from.thread) fail(`parent ${e.parent} is not the sender's thread`);
      popSend(e.from, deliversTo(e.to));
      s.openInstanceThread(e.to.thread, e.parent);
      s.addParent({ kind: "Parent", child: e.to.thread, parent: e.parent });
      s.addMailbox({ kind: "Mailbox", a: e.to, queue: [e.content] });
      s.addState({ kind: "Idle", a: e.to });
      s.see(addressKey(e.from), addressKey(e.to));
      s.see(addressKey(e.to), addressKey(e.from));
      return;
    }
    case "deliver": {
      popSend(e.from, deliversTo(e.to));
      const mailbox = s.mailbox(addressKey(e.to)) ?? fail(`no mailbox ${addressKey(e.to)}`);
      s.replaceMailbox(mailbox, { ...mailbox, queue: [...mailbox.queue, e.content] });
      s.see(addressKey(e.to), addressKey(e.from));
      return;
    }
    case "refuse":
      return popSend(e.from, (send) => sameJson(send.msgs[0], e.payload));
    case "send-empty": {
      const send = stateOf(e.a, "Send");
      if (send.msgs.length > 0) fail(`${addressKey(e.a)}'s Send is not empty`);
      s.replaceState(send, { kind: "Idle", a: send.a });
      return;
    }
    case "wake":
      return; // informational: a Run is transient (§11)
    case "turn-end":
      return turnEnd(s, e, fail);
    case "ask": {
      const asked = stateOf(e.caller, "AskQuestion");
      if (asked.id !== e.id) fail(`${addressKey(e.caller)} asked "${asked.id}", not "${e.id}"`);
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
      const proxy = escalation(s, e.id, "Proxy", fail);
      if (proxy.policy === "never") fail(`escalation "${e.id}" is under policy never`);
      const { id, caller, policy } = proxy;
      s.replaceEscalation(proxy, { kind: "AskHuman", id, caller, framed: e.framed, policy });
      return;
    }
    case "human-reply": {
      const waiting = escalation(s, e.id, "AskHuman", fail);
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
      const proxy = escalation(s, e.id, "Proxy", fail);
      if (proxy.policy === "always" && proxy.h === "fresh") fail(`"${e.id}" needs a human reply`);
      const key = addressKey(proxy.caller);
      const mailbox = s.mailbox(key) ?? fail(`no mailbox ${key}`);
      s.removeEscalation(proxy);
      s.replaceMailbox(mailbox, { ...mailbox, queue: [...mailbox.queue, e.answer] });
      return;
    }
    case "interrupt":
      liveThread(e.thread);
      s.addInterrupt({ kind: "Interrupt", thread: e.thread, content: e.content });
      return;
    case "terminate": {
      const origin = e.origin;
      switch (origin.rule) {
        case "external":
          liveThread(e.thread);
          return place(e.thread, e.mode);
        case "send-terminate": {
          popSend(origin.by, (send) =>
            sameJson(send.msgs[0], { kind: "terminate", thread: e.thread }),
          );
          const edge = s.parents.get(e.thread)?.find((p) => p.parent === origin.by.thread);
          if (edge === undefined) fail(`${e.thread} is not a child of ${origin.by.thread}`);
          liveThread(e.thread);
          return place(e.thread, e.mode);
        }
        case "cascade": {
          terminateOn(origin.parent);
          const edge =
            s.parents.get(e.thread)?.find((p) => p.parent === origin.parent) ??
            fail(`no Parent(${e.thread}, ${origin.parent})`);
          s.removeParent(edge);
          if (!s.terminated.has(e.thread)) place(e.thread, e.mode);
          return;
        }
        default: {
          const never: never = origin;
          return fail(`unknown origin ${JSON.stringify(never)}`);
        }
      }
    }
    case "term-run": {
      // The projection holds the Idle the Run woke from, and what it consumed.
      terminateOn(e.a.thread);
      s.removeState(stateOf(e.a, "Idle"));
      consume(s, e.a, e.consumed, fail);
      return;
    }
    case "term-idle":
      terminateOn(e.a.thread);
      return s.removeState(stateOf(e.a, "Idle"));
    case "term-send":
      terminateOn(e.a.thread);
      return s.removeState(stateOf(e.a, "Send"));
    case "term-ask":
      terminateOn(e.a.thread);
      return s.removeState(stateOf(e.a, "AskQuestion"));
    case "term-mbox": {
      terminateOn(e.a.thread);
      const mailbox = s.mailbox(addressKey(e.a)) ?? fail(`no mailbox ${addressKey(e.a)}`);
      return s.removeMailbox(mailbox);
    }
    case "term-proxy": {
      terminateOn(escalationThread(e.id));
      const m = s.escalations.get(e.id)?.[0] ?? fail(`no pending escalation "${e.id}"`);
      return s.removeEscalation(m);
    }
    case "term-int": {
      terminateOn(e.thread);
      const int =
        s.interrupts.get(e.thread)?.find((m) => sameJson(m.content, e.content)) ??
        fail(`no such Interrupt on ${e.thread}`);
      return s.removeInterrupt(int);
    }
    case "term-final": {
      const term = s.terminates.get(e.thread)?.[0] ?? fail(`no Terminate on ${e.thread}`);
      if (!untagged(s, e.thread)) fail(`molecules tagged ${e.thread} remain`);
      return s.removeTerminate(term);
    }
    case "outcome":
    case "transition":
      return; // audit entries: collected by fold
    default: {
      const never: never = e;
      return fail(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

function turnEnd(s: Store, e: BusEventOf<"turn-end">, fail: (d: string) => never): void {
  const idle = s.state(addressKey(e.a));
  if (idle?.kind !== "Idle") fail(`${addressKey(e.a)} is ${idle?.kind ?? "absent"}, not Idle`);
  consume(s, e.a, e.consumed, fail);
  const a = (idle as InstanceMolecule).a;
  switch (e.rule) {
    case "nosend-step":
      return;
    case "send-step": {
      const msgs = e.payloads ?? fail("send-step without payloads");
      return s.replaceState(idle as InstanceMolecule, { kind: "Send", a, msgs });
    }
    case "ask-step": {
      const ask = e.ask ?? fail("ask-step without ask");
      const thread = escalationThread(ask.id);
      if (s.threads.has(thread)) fail(`escalation id "${ask.id}" is taken`);
      s.openEscalationThread(thread, ask.id);
      return s.replaceState(idle as InstanceMolecule, { kind: "AskQuestion", a, ...ask });
    }
    default: {
      const never: never = e.rule;
      return fail(`unknown turn-end rule ${String(never)}`);
    }
  }
}

/** Makes a Run's consumption durable: the mailbox head and the Interrupts it took. */
function consume(s: Store, a: Address, consumed: Consumed[], fail: (d: string) => never): void {
  const key = addressKey(a);
  for (const c of consumed) {
    if (c.from === "mailbox") {
      // A mailbox flushed by [term-mbox] mid-Run has already lost the message.
      const mailbox = s.mailbox(key);
      if (mailbox === undefined) continue;
      if (!sameJson(mailbox.queue[0], c.content)) fail(`${key}'s mailbox head is another message`);
      s.replaceMailbox(mailbox, { ...mailbox, queue: mailbox.queue.slice(1) });
      continue;
    }
    const int =
      s.interrupts.get(a.thread)?.find((m) => sameJson(m.content, c.content)) ??
      fail(`no such Interrupt on ${a.thread}`);
    s.removeInterrupt(int);
  }
}

function escalation<K extends "Proxy" | "AskHuman">(
  s: Store,
  id: string,
  kind: K,
  fail: (d: string) => never,
) {
  const m = s.escalations.get(id)?.[0];
  if (m?.kind !== kind) fail(`escalation "${id}" is ${m?.kind ?? "absent"}, expected ${kind}`);
  return m as Extract<NonNullable<typeof m>, { kind: K }>;
}

function sameJson(x: Content | object | undefined, y: Content | object): boolean {
  return x !== undefined && canonicalLine(x) === canonicalLine(y);
}
