// The soup's storage: molecules in bags with indexes, plus the relations the protocol keeps
// beside them (visibility, threads and the dispatch graph: docs/protocol.md#dispatch). Rules
// and fold change it only through these primitives, which keep the indexes right.
//
// Molecules live in bags (arrays) keyed by what identifies them, so a broken rule that made a
// second Idle for one (A, t) would leave two molecules there, and the single-instance lifecycle
// check (docs/protocol.md#invariants) would see them, instead of one silently overwriting the
// other.

import { addressKey, type Address } from "../address.js";
import type {
  BlockedMolecule,
  Content,
  EscalationMolecule,
  InstanceMolecule,
  InterruptMolecule,
  MailboxMolecule,
  ParentMolecule,
  TerminateMolecule,
} from "./molecules.js";

/** `blocked`: reserved by a spark waiting under the fan-out cap (BlockedMolecule). */
export const THREAD_KINDS = ["instance", "escalation", "blocked"] as const;
export type ThreadKind = (typeof THREAD_KINDS)[number];

export const DEFAULT_FAN_OUT_CAP = 3;

export class Store {
  // Molecules.
  readonly states = new Map<string, InstanceMolecule[]>();
  readonly mailboxes = new Map<string, MailboxMolecule[]>();
  /** Parent(child, parent) molecules by child thread. */
  readonly parents = new Map<string, ParentMolecule[]>();
  /** Proxy / AskHuman molecules by escalation id. */
  readonly escalations = new Map<string, EscalationMolecule[]>();
  readonly interrupts = new Map<string, InterruptMolecule[]>();
  readonly terminates = new Map<string, TerminateMolecule[]>();
  /** Blocked sparks by the sparker's thread, oldest first: the queue [unblock] serves. */
  readonly blocked = new Map<string, BlockedMolecule[]>();

  // Relations beside the molecules; durable, rebuilt by fold.
  /** Visibility: address key → the address keys it may send to. */
  readonly visibility = new Map<string, Set<string>>();
  /** Every thread ever opened, so a spark never reuses one (Parent edges stay a tree). */
  readonly threads = new Map<string, ThreadKind>();
  /** The dispatch graph, child thread → parent thread, never forgotten (it is persisted). */
  readonly lineage = new Map<string, string>();
  /** Threads a Terminate has been placed on; nothing may address them again. */
  readonly terminated = new Set<string>();
  /** Escalation thread → escalation id. */
  readonly escalationIds = new Map<string, string>();

  // Derived indexes.
  /** Parent thread → child threads that still have a Parent molecule. */
  readonly childrenOf = new Map<string, Set<string>>();
  /** Thread → keys of the instances on it that have a state or a mailbox. */
  readonly onThread = new Map<string, Set<string>>();
  readonly addresses = new Map<string, Address>();
  /** Parent thread → live (not terminated) instance children: the fan-out count. */
  readonly liveChildren = new Map<string, number>();
  /** Idle instances with mail or a pending Interrupt: where [wake] / [wake-int] match. */
  readonly ready = new Set<string>();
  readonly runs = new Set<string>();
  readonly sends = new Set<string>();
  readonly asks = new Set<string>();

  /** While set, `ready`/`runs`/`sends`/`asks` are stale: fold rebuilds them once, at its end. */
  private deferred = false;

  constructor(readonly fanOutCap: number = DEFAULT_FAN_OUT_CAP) {}

  /**
   * Fold replays a whole log and never reads the wake indexes on the way (keeping them per
   * event was a third of a fold's time): stop maintaining them until `settle`.
   */
  deferIndexes(): void {
    this.deferred = true;
  }

  /** Rebuilds the wake indexes after `deferIndexes`, once, from the molecules. */
  settleIndexes(): void {
    if (!this.deferred) return;
    this.deferred = false;
    for (const key of this.states.keys()) this.reindex(key);
  }

  state(key: string): InstanceMolecule | undefined {
    return this.states.get(key)?.[0];
  }

  mailbox(key: string): MailboxMolecule | undefined {
    return this.mailboxes.get(key)?.[0];
  }

  addState(m: InstanceMolecule): void {
    this.changeInstance(this.states, m, bagAdd);
  }

  removeState(m: InstanceMolecule): void {
    this.changeInstance(this.states, m, bagRemove);
  }

  /** A state or mailbox added or removed: the instance's presence and wake indexes follow. */
  private changeInstance<M extends InstanceMolecule | MailboxMolecule>(
    bags: Map<string, M[]>,
    m: M,
    change: (bags: Map<string, M[]>, key: string, m: M) => void,
  ): void {
    const key = addressKey(m.a);
    change(bags, key, m);
    this.touchInstance(key, m.a);
  }

  /**
   * replaceState for a caller that holds the instance's bag (`states.get(key)`, fold-apply.ts):
   * the same change without looking the bag up again.
   */
  replaceStateIn(
    bag: InstanceMolecule[],
    old: InstanceMolecule,
    next: InstanceMolecule,
    key: string,
  ) {
    const at = bag.indexOf(old);
    if (at < 0) throw new Error(`cfa/bus: internal: no such molecule at ${key}`);
    bag[at] = next;
    this.reindex(key);
  }

  /** `key` is `addressKey(old.a)`, when the caller has it already. */
  replaceState(old: InstanceMolecule, next: InstanceMolecule, key = addressKey(old.a)): void {
    bagReplace(this.states, key, old, next);
    // The instance stays present: only its wake indexes can change.
    this.reindex(key);
  }

  addMailbox(m: MailboxMolecule): void {
    this.changeInstance(this.mailboxes, m, bagAdd);
  }

  removeMailbox(m: MailboxMolecule): void {
    this.changeInstance(this.mailboxes, m, bagRemove);
  }

  // A mailbox is the one molecule changed in place: copying its queue on every append would
  // make a busy orchestrator's mailbox quadratic. clone() and Soup.molecules() copy it, so
  // nothing outside the store ever sees it change.

  /** Appends to the back of the queue ([send], [respond]). */
  appendMail(mailbox: MailboxMolecule, content: Content): void {
    mailbox.queue.push(content);
    if (!this.deferred) this.reindex(addressKey(mailbox.a));
  }

  /** Takes the head of the queue ([wake]). */
  takeMail(mailbox: MailboxMolecule): Content | undefined {
    const head = mailbox.queue.shift();
    if (!this.deferred) this.reindex(addressKey(mailbox.a));
    return head;
  }

  /** Puts a message back at the head (the durable projection of a Run). */
  returnMail(mailbox: MailboxMolecule, content: Content): void {
    mailbox.queue.unshift(content);
    if (!this.deferred) this.reindex(addressKey(mailbox.a));
  }

  addParent(m: ParentMolecule): void {
    bagAdd(this.parents, m.child, m);
    let children = this.childrenOf.get(m.parent);
    if (children === undefined) this.childrenOf.set(m.parent, (children = new Set()));
    children.add(m.child);
  }

  removeParent(m: ParentMolecule): void {
    bagRemove(this.parents, m.child, m);
    if (this.parents.get(m.child)?.some((p) => p.parent === m.parent)) return;
    const children = this.childrenOf.get(m.parent);
    children?.delete(m.child);
    if (children?.size === 0) this.childrenOf.delete(m.parent);
  }

  addEscalation(m: EscalationMolecule): void {
    bagAdd(this.escalations, m.id, m);
  }

  removeEscalation(m: EscalationMolecule): void {
    bagRemove(this.escalations, m.id, m);
  }

  replaceEscalation(old: EscalationMolecule, next: EscalationMolecule): void {
    bagReplace(this.escalations, old.id, old, next);
  }

  addInterrupt(m: InterruptMolecule): void {
    bagAdd(this.interrupts, m.thread, m);
    this.touchThread(m.thread);
  }

  removeInterrupt(m: InterruptMolecule): void {
    bagRemove(this.interrupts, m.thread, m);
    this.touchThread(m.thread);
  }

  /** Queues a blocked spark behind its thread's others, reserving the thread it will open. */
  addBlocked(m: BlockedMolecule): void {
    bagAdd(this.blocked, m.a.thread, m);
    this.threads.set(m.to.thread, "blocked");
  }

  /** Takes a blocked spark out of its queue ([unblock], [term-blocked]). */
  removeBlocked(m: BlockedMolecule): void {
    bagRemove(this.blocked, m.a.thread, m);
  }

  addTerminate(m: TerminateMolecule): void {
    bagAdd(this.terminates, m.thread, m);
  }

  removeTerminate(m: TerminateMolecule): void {
    bagRemove(this.terminates, m.thread, m);
  }

  /** `viewer` may now address `seen`. */
  see(viewer: string, seen: string): void {
    let set = this.visibility.get(viewer);
    if (set === undefined) this.visibility.set(viewer, (set = new Set()));
    set.add(seen);
  }

  /** Registers a fresh instance thread, sparked from `parent` (or the root when null). */
  openInstanceThread(thread: string, parent: string | null): void {
    this.threads.set(thread, "instance");
    if (parent === null) return;
    this.lineage.set(thread, parent);
    this.liveChildren.set(parent, (this.liveChildren.get(parent) ?? 0) + 1);
  }

  /**
   * [spark] and [unblock] (and their replay): the instance `to` starts on its own thread
   * under `from`'s, `first` in its mailbox; B's visibility gains (A, t') and A's is
   * initialised with (B, t) (docs/protocol.md#dispatch).
   */
  startInstance(from: Address, to: Address, first: Content): void {
    this.openInstanceThread(to.thread, from.thread);
    this.addParent({ kind: "Parent", child: to.thread, parent: from.thread });
    this.addMailbox({ kind: "Mailbox", a: to, queue: [first] });
    this.addState({ kind: "Idle", a: to });
    this.see(addressKey(from), addressKey(to));
    this.see(addressKey(to), addressKey(from));
  }

  /** Reserves `escalation:<id>` at [ask-step]; [ask] links it to the caller's thread. */
  openEscalationThread(thread: string, id: string): void {
    this.threads.set(thread, "escalation");
    this.escalationIds.set(thread, id);
  }

  linkEscalation(thread: string, parent: string): void {
    this.lineage.set(thread, parent);
  }

  /** A Terminate was placed on `thread`: it frees its fan-out slot at once. */
  markTerminated(thread: string): void {
    if (this.terminated.has(thread)) return;
    this.terminated.add(thread);
    const parent = this.lineage.get(thread);
    if (this.threads.get(thread) !== "instance" || parent === undefined) return;
    const live = (this.liveChildren.get(parent) ?? 0) - 1;
    if (live > 0) this.liveChildren.set(parent, live);
    else this.liveChildren.delete(parent);
  }

  /** How many sparks wait under `thread` ([send-block]). */
  queued(thread: string): number {
    return this.blocked.get(thread)?.length ?? 0;
  }

  /** Whether [unblock] may start `m`: first in its queue, its parent live and under the cap. */
  unblockable(m: BlockedMolecule): boolean {
    const parent = m.a.thread;
    return (
      this.blocked.get(parent)?.[0] === m &&
      !this.terminated.has(parent) &&
      (this.liveChildren.get(parent) ?? 0) < this.fanOutCap
    );
  }

  isLiveInstanceThread(thread: string): boolean {
    return this.threads.get(thread) === "instance" && !this.terminated.has(thread);
  }

  clone(): Store {
    const copy = new Store(this.fanOutCap);
    copyBags(this.states, copy.states);
    for (const [k, bag] of this.mailboxes) {
      copy.mailboxes.set(
        k,
        bag.map((m) => ({ ...m, queue: m.queue.slice() })),
      );
    }
    copyBags(this.parents, copy.parents);
    copyBags(this.escalations, copy.escalations);
    copyBags(this.interrupts, copy.interrupts);
    copyBags(this.terminates, copy.terminates);
    copyBags(this.blocked, copy.blocked);
    copySets(this.visibility, copy.visibility);
    copySets(this.childrenOf, copy.childrenOf);
    copySets(this.onThread, copy.onThread);
    for (const [k, v] of this.threads) copy.threads.set(k, v);
    for (const [k, v] of this.lineage) copy.lineage.set(k, v);
    for (const [k, v] of this.escalationIds) copy.escalationIds.set(k, v);
    for (const [k, v] of this.addresses) copy.addresses.set(k, v);
    for (const [k, v] of this.liveChildren) copy.liveChildren.set(k, v);
    for (const t of this.terminated) copy.terminated.add(t);
    for (const k of this.ready) copy.ready.add(k);
    for (const k of this.runs) copy.runs.add(k);
    for (const k of this.sends) copy.sends.add(k);
    for (const k of this.asks) copy.asks.add(k);
    return copy;
  }

  private touchThread(thread: string): void {
    const keys = this.onThread.get(thread);
    if (keys === undefined) return;
    for (const key of keys) this.reindex(key);
  }

  private touchInstance(key: string, a: Address): void {
    const present = this.states.has(key) || this.mailboxes.has(key);
    let keys = this.onThread.get(a.thread);
    if (present) {
      if (keys === undefined) this.onThread.set(a.thread, (keys = new Set()));
      keys.add(key);
      if (!this.addresses.has(key)) this.addresses.set(key, a);
    } else if (keys !== undefined) {
      keys.delete(key);
      if (keys.size === 0) this.onThread.delete(a.thread);
      this.addresses.delete(key);
    }
    this.reindex(key);
  }

  private reindex(key: string): void {
    if (this.deferred) return;
    const s = this.state(key);
    toggle(this.runs, key, s?.kind === "Run");
    toggle(this.sends, key, s?.kind === "Send");
    toggle(this.asks, key, s?.kind === "AskQuestion");
    let ready = false;
    if (s?.kind === "Idle") {
      const queued = (this.mailbox(key)?.queue.length ?? 0) > 0;
      ready = queued || (this.interrupts.get(s.a.thread)?.length ?? 0) > 0;
    }
    toggle(this.ready, key, ready);
  }
}

function toggle(set: Set<string>, key: string, on: boolean): void {
  if (on) set.add(key);
  else set.delete(key);
}

function bagAdd<V>(map: Map<string, V[]>, key: string, value: V): void {
  const bag = map.get(key);
  if (bag === undefined) map.set(key, [value]);
  else bag.push(value);
}

function bagIndex<V>(map: Map<string, V[]>, key: string, value: V): [V[], number] {
  const bag = map.get(key);
  const at = bag === undefined ? -1 : bag.indexOf(value);
  // Rules only remove molecules they matched in this store: a miss is a bug in a rule.
  if (bag === undefined || at < 0) throw new Error(`cfa/bus: internal: no such molecule at ${key}`);
  return [bag, at];
}

function bagRemove<V>(map: Map<string, V[]>, key: string, value: V): void {
  const [bag, at] = bagIndex(map, key, value);
  bag.splice(at, 1);
  if (bag.length === 0) map.delete(key);
}

function bagReplace<V>(map: Map<string, V[]>, key: string, old: V, next: V): void {
  const [bag, at] = bagIndex(map, key, old);
  bag[at] = next;
}

function copyBags<V>(from: Map<string, V[]>, to: Map<string, V[]>): void {
  for (const [k, v] of from) to.set(k, v.slice());
}

function copySets<V>(from: Map<string, Set<V>>, to: Map<string, Set<V>>): void {
  for (const [k, v] of from) to.set(k, new Set(v));
}
