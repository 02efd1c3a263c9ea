// The shapes most rules share, written once: a rule whose LHS is one molecule, a [term-*]
// rule that consumes what a Terminate(t) reaches, a Send rule chosen by its head payload, an
// interrupt, and the start of a sparked instance. Each rule keeps its own file, named as in
// docs/protocol.md; what it holds is only what is its own.

import type { Address } from "../../address.js";
import type { StepResult } from "../effects.js";
import type { Content, Molecule } from "../molecules.js";
import type { InputOf, RuleName } from "../redex.js";
import { classifySend, type SendHead } from "../routing.js";
import type { Store } from "../store.js";
import { part, stamp, type Anchor, type Rule } from "./rule.js";
import { statesOn } from "./tagged.js";

type Of<K extends Molecule["kind"]> = Extract<Molecule, { kind: K }>;

/** A rule whose LHS is one molecule of `kind` (found at `anchor`), enabled when `when` holds. */
export function loneRule<R extends RuleName, K extends Molecule["kind"]>(
  name: R,
  anchor: Anchor,
  kind: K,
  fire: (store: Store, m: Of<K>, input: InputOf<R>, out: StepResult) => void,
  when: (store: Store, m: Of<K>) => boolean = () => true,
): Rule<R> {
  return {
    name,
    anchor,
    match(store, m) {
      return m.kind === kind && when(store, m as Of<K>) ? [{ rule: name, molecules: [m] }] : [];
    },
    fire(store, redex, input, out) {
      fire(store, part(redex, 0, kind), input, out);
    },
  };
}

/**
 * The [term-*] shape (docs/protocol.md#withdrawal): Terminate(t) ‖ m → Terminate(t), for every m
 * tagged with t that `reach` finds; `consume` removes m and says what happened.
 */
export function terminateRule<R extends RuleName, M extends Molecule>(
  name: R,
  reach: (store: Store, thread: string) => readonly M[],
  consume: (store: Store, m: M, term: Of<"Terminate">, out: StepResult) => void,
): Rule<R> {
  return {
    name,
    anchor: "Terminate",
    match(store, term) {
      if (term.kind !== "Terminate") return [];
      return reach(store, term.thread).map((m) => ({ rule: name, molecules: [term, m] }));
    },
    fire(store, redex, _input, out) {
      consume(store, redex.molecules[1] as M, part(redex, 0, "Terminate"), out);
    },
  };
}

type Released = "term-run" | "term-idle" | "term-send" | "term-ask";

/**
 * [term-run], [term-idle], [term-send], [term-ask]: the instance's state on t goes, which
 * releases the instance: the engine merges or drops its workspace according to the
 * Terminate's mode (docs/protocol.md#workspaces).
 */
export function releaseRule<R extends Released, K extends "Run" | "Idle" | "Send" | "AskQuestion">(
  name: R,
  kind: K,
  event: (m: Of<K>) => StepResult["events"][number],
): Rule<R> {
  return terminateRule(
    name,
    (store, thread) => statesOn(store, thread, kind),
    (store, m, term, out) => {
      store.removeState(m);
      out.events.push(event(m));
      out.effects.push({
        kind: "release",
        a: m.a,
        mode: term.mode,
        parent: store.lineage.get(m.a.thread) ?? null,
        rule: name,
      });
    },
  );
}

/** [spark] and [unblock]: the instance `to` starts (Store.startInstance) on its stamped first message. */
export function startInstance(
  store: Store,
  from: Address,
  to: Address,
  first: Content,
  out: StepResult,
): Content {
  const content = stamp(first, from);
  store.startInstance(from, to, content);
  out.effects.push({ kind: "spark", a: to, parent: from.thread, from, first: content });
  return content;
}

type HeadRule = Exclude<SendHead["rule"], "send-empty">;

/**
 * The Send rules (docs/protocol.md#message-soup): exactly one matches a Send, by what its head
 * payload is (routing.ts: classifySend); `fire` gets that classification.
 */
export function headRule<R extends HeadRule>(
  name: R,
  fire: (
    store: Store,
    send: Of<"Send">,
    head: Extract<SendHead, { rule: R }>,
    out: StepResult,
  ) => void,
): Rule<R> {
  const classified = (store: Store, send: Of<"Send">) => {
    const head = classifySend(store, send);
    return head.rule === name ? (head as Extract<SendHead, { rule: R }>) : undefined;
  };
  return {
    name,
    anchor: "Send",
    match(store, send) {
      if (send.kind !== "Send") return [];
      const head = classified(store, send);
      if (head === undefined) return [];
      const partner = "mailbox" in head ? head.mailbox : "edge" in head ? head.edge : undefined;
      return [{ rule: name, molecules: partner === undefined ? [send] : [send, partner] }];
    },
    fire(store, redex, _input, out) {
      const send = part(redex, 0, "Send");
      const head = classified(store, send);
      if (head === undefined) throw new Error(`cfa/bus: internal: [${name}] on another head`);
      fire(store, send, head, out);
    },
  };
}

/**
 * [interrupt] and [wake-int] (docs/protocol.md#intervention): an instance's Run or Idle on t meets
 * an Interrupt(t, Y) and becomes Run(A, t, Y), bypassing the mailbox; what a Run had consumed is
 * kept, the interrupt last.
 */
export function interruptOn<R extends "interrupt" | "wake-int">(
  name: R,
  anchor: Anchor,
  kind: "Run" | "Idle",
): Rule<R> {
  return {
    name,
    anchor,
    match(store, m) {
      if (m.kind !== kind || (m.kind !== "Run" && m.kind !== "Idle")) return [];
      const pending = store.interrupts.get(m.a.thread) ?? [];
      return pending.map((int) => ({ rule: name, molecules: [m, int] }));
    },
    fire(store, redex, _input, out) {
      const m = part(redex, 0, kind);
      const int = part(redex, 1, "Interrupt");
      store.removeInterrupt(int);
      store.replaceState(m, {
        kind: "Run",
        a: m.a,
        msg: int.content,
        via: [...(m.kind === "Run" ? m.via : []), { from: "interrupt", content: int.content }],
      });
      out.events.push({ type: "wake", a: m.a, rule: name, content: int.content });
    },
  };
}
