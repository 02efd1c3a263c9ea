// The soup's molecules (docs/protocol.md#message-soup), as plain JSON-serialisable values. A
// molecule is never mutated once it is in a soup: a rule that "changes" one replaces it, so
// a redex taken from `enabled()` can be recognised by reference when it is fired.

import { threads, type Address } from "../address.js";

/** The per-state escalation policy π (docs/protocol.md#escalation). */
export const ESCALATION_POLICIES = ["never", "when_unsure", "always"] as const;
export type Policy = (typeof ESCALATION_POLICIES)[number];

/** h records whether the human has replied at least once in this escalation. */
export const PROXY_HISTORIES = ["fresh", "post-human"] as const;
export type ProxyHistory = (typeof PROXY_HISTORIES)[number];

/** A close ([send-terminate]) merges the workspace, a withdraw drops it. */
export const TERMINATE_MODES = ["merge", "drop"] as const;
export type TerminateMode = (typeof TERMINATE_MODES)[number];

/** What crosses the bus: a message, a question, an answer, an intervention. */
export interface Content {
  kind: string;
  text: string;
  /** Stamped by [send] / [spark] with the sending instance, so the recipient can reply. */
  from?: Address;
  data?: Record<string, unknown>;
}

/** What a Send carries: a delivery (A, t', x) or terminate(t'). */
export type Payload =
  { kind: "deliver"; to: Address; content: Content } | { kind: "terminate"; thread: string };

/**
 * Where a Run's message came from; its consumption becomes durable only at turn end (a crash
 * mid-Run loses at most that turn: docs/protocol.md#persistence).
 */
export const CONSUMED_SOURCES = ["mailbox", "interrupt"] as const;
export type ConsumedSource = (typeof CONSUMED_SOURCES)[number];
export interface Consumed {
  from: ConsumedSource;
  content: Content;
}

export interface IdleMolecule {
  kind: "Idle";
  a: Address;
}
export interface RunMolecule {
  kind: "Run";
  a: Address;
  msg: Content;
  /** Everything this turn consumed, in order ([wake]/[wake-int], then any [interrupt]s). */
  via: Consumed[];
}
export interface SendMolecule {
  kind: "Send";
  a: Address;
  msgs: Payload[];
}
export interface MailboxMolecule {
  kind: "Mailbox";
  a: Address;
  queue: Content[];
}
export interface ParentMolecule {
  kind: "Parent";
  child: string;
  parent: string;
}
export interface AskQuestionMolecule {
  kind: "AskQuestion";
  a: Address;
  id: string;
  question: Content;
  policy: Policy;
}
export interface ProxyMolecule {
  kind: "Proxy";
  id: string;
  caller: Address;
  question: Content;
  policy: Policy;
  h: ProxyHistory;
}
export interface AskHumanMolecule {
  kind: "AskHuman";
  id: string;
  caller: Address;
  framed: Content;
  policy: Policy;
}
export interface InterruptMolecule {
  kind: "Interrupt";
  thread: string;
  content: Content;
}
/**
 * cfa-bot's own molecule for the fan-out cap (a spark past it waits until the parent closes a
 * child: docs/protocol.md#configuration): B's spark of (A, t') waiting for a free slot under
 * B's thread. It is tagged with B's thread — a withdraw of B drops it — and is queued there
 * in order; `to.thread` is reserved so nothing else takes it meanwhile.
 */
export interface BlockedMolecule {
  kind: "Blocked";
  a: Address;
  to: Address;
  content: Content;
}
export interface TerminateMolecule {
  kind: "Terminate";
  thread: string;
  mode: TerminateMode;
}

export type Molecule =
  | IdleMolecule
  | RunMolecule
  | SendMolecule
  | MailboxMolecule
  | ParentMolecule
  | AskQuestionMolecule
  | ProxyMolecule
  | AskHumanMolecule
  | InterruptMolecule
  | BlockedMolecule
  | TerminateMolecule;

/** The canonical order of kinds in `Soup.molecules()`. */
export const MOLECULE_KINDS = [
  "Idle",
  "Run",
  "Send",
  "AskQuestion",
  "Mailbox",
  "Parent",
  "Proxy",
  "AskHuman",
  "Interrupt",
  "Blocked",
  "Terminate",
] as const satisfies readonly Molecule["kind"][];
export type MoleculeKind = (typeof MOLECULE_KINDS)[number];

/**
 * The molecules that are an (A, t) instance's lifecycle state: at most one at a time
 * (single-instance lifecycle, docs/protocol.md#invariants).
 */
export type InstanceMolecule = IdleMolecule | RunMolecule | SendMolecule | AskQuestionMolecule;
export const INSTANCE_KINDS = [
  "Idle",
  "Run",
  "Send",
  "AskQuestion",
] as const satisfies readonly InstanceMolecule["kind"][];

/** A pending escalation, keyed by its id; its thread is `escalation:<id>`. */
export type EscalationMolecule = ProxyMolecule | AskHumanMolecule;

export const isInstanceMolecule = (m: Molecule): m is InstanceMolecule =>
  (INSTANCE_KINDS as readonly string[]).includes(m.kind);

/**
 * The thread a molecule is tagged with, as [term-final] reads it. A Parent
 * edge is tagged with its parent thread: [cascade] consumes it from the parent's side, and
 * the child's own Terminate must be able to self-erase while the parent keeps the edge.
 */
export function moleculeThread(m: Molecule): string {
  switch (m.kind) {
    case "Idle":
    case "Run":
    case "Send":
    case "Mailbox":
    case "AskQuestion":
    case "Blocked":
      return m.a.thread;
    case "Parent":
      return m.parent;
    case "Proxy":
    case "AskHuman":
      return escalationThread(m.id);
    case "Interrupt":
    case "Terminate":
      return m.thread;
    default: {
      const never: never = m;
      throw new Error(`cfa/bus: unknown molecule ${JSON.stringify(never)}`);
    }
  }
}

/** An escalation is a conversation on thread `escalation:<id>` (docs/protocol.md#escalation). */
export const escalationThread = (id: string): string => threads.escalation(id);

/** The escalation id of an `escalation:<id>` thread (the inverse of `escalationThread`). */
export function escalationIdOf(thread: string): string | null {
  const prefix = escalationThread("");
  return thread.startsWith(prefix) ? thread.slice(prefix.length) : null;
}
