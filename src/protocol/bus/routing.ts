// Routing locality (docs/protocol.md#dispatch) and the fan-out cap: the structural, pre-delivery
// check of a payload. The engine calls `checkPayloads` while an agent composes a Send, so the agent
// hears "no" at once (or that its spark will wait under the cap); [send] / [spark] / [send-block] /
// [send-terminate] re-check at reduction time, since the soup may have changed in between (a
// sibling terminated, a thread taken).

import { addressKey, type Address } from "../address.js";
import type { MailboxMolecule, ParentMolecule, Payload, SendMolecule } from "./molecules.js";
import { rootReaches } from "./orchestrator-reach.js";
import type { Rejection, RejectionReason } from "./rejection.js";
import type { Store } from "./store.js";

/** What the payloads earlier in the same Send will have done by the time this one reduces. */
interface Pending {
  /** Threads sparked earlier in the Send → the agent sparked there. */
  sparked: Map<string, string>;
  /** Threads terminated earlier in the Send. */
  closed: Set<string>;
  /** Live-children delta of the sender's thread. */
  delta: number;
  /** Threads whose sparks earlier in the Send will wait under the cap ([send-block]). */
  blocked: Set<string>;
}

const nothingPending = (): Pending => ({
  sparked: new Map(),
  closed: new Set(),
  delta: 0,
  blocked: new Set(),
});

/** Each payload's rejection (or null), in order, as the rules would meet them one by one. */
export function checkPayloads(
  store: Store,
  sender: Address,
  payloads: readonly Payload[],
): (Rejection | null)[] {
  const pending = nothingPending();
  return payloads.map((payload) => {
    const rejection = rejectPayload(store, sender, payload, pending);
    if (rejection === null) remember(store, sender, payload, pending);
    return rejection;
  });
}

function remember(store: Store, sender: Address, payload: Payload, pending: Pending): void {
  if (payload.kind === "terminate") {
    const t = payload.thread;
    if (pending.sparked.has(t) || store.isLiveInstanceThread(t)) pending.delta -= 1;
    pending.closed.add(t);
    return;
  }
  const t = payload.to.thread;
  const exists = store.onThread.get(t)?.has(addressKey(payload.to)) ?? false;
  if (exists || pending.sparked.has(t)) return;
  if (wouldBlock(store, sender, pending)) pending.blocked.add(t);
  else {
    pending.sparked.set(t, payload.to.agent);
    pending.delta += 1;
  }
}

/**
 * A spark from `sender` now waits under the fan-out cap when its thread has no
 * free slot, or when older sparks already wait there (first come, first served).
 */
function wouldBlock(store: Store, sender: Address, pending: Pending): boolean {
  const t = sender.thread;
  if (store.queued(t) + pending.blocked.size > 0) return true;
  return (store.liveChildren.get(t) ?? 0) + pending.delta + 1 > store.fanOutCap;
}

/**
 * For each payload, whether it is a spark that will wait under the fan-out cap
 * ([send-block]) as the rules would meet them one by one: what the engine tells the agent.
 */
export function blockedPayloads(
  store: Store,
  sender: Address,
  payloads: readonly Payload[],
): boolean[] {
  const pending = nothingPending();
  return payloads.map((payload) => {
    if (rejectPayload(store, sender, payload, pending) !== null) return false;
    const before = pending.blocked.size;
    remember(store, sender, payload, pending);
    return pending.blocked.size > before;
  });
}

export function rejectPayload(
  store: Store,
  sender: Address,
  payload: Payload,
  pending: Pending = nothingPending(),
): Rejection | null {
  const reject = (reason: RejectionReason, message: string): Rejection => ({
    reason,
    payload,
    message,
  });
  // A withdrawn instance's in-flight Send reaches nobody ([term-send] drops it); refusing here
  // keeps it from sparking children only to have them cascaded.
  if (store.terminated.has(sender.thread)) {
    return reject(
      "terminated",
      `${addressKey(sender)} is on a terminated thread; it can send nothing`,
    );
  }
  if (payload.kind === "terminate") {
    const t = payload.thread;
    if (store.terminated.has(t) || pending.closed.has(t)) {
      return reject("terminated", `thread ${t} is already terminated; nothing to close`);
    }
    if (pending.sparked.has(t)) return null;
    if (isBlocked(store, t, pending)) {
      return reject("blocked", `thread ${t} has not started: it waits for a free slot`);
    }
    const isChild = store.parents.get(t)?.some((p) => p.parent === sender.thread) ?? false;
    if (!isChild) {
      return reject(
        "not-parent",
        `thread ${t} is not a child of ${sender.thread}; close only the threads you dispatched`,
      );
    }
    return null;
  }
  const to = payload.to;
  const key = addressKey(to);
  if (store.terminated.has(to.thread) || pending.closed.has(to.thread)) {
    return reject("terminated", `${key} is on a terminated thread; address a live instance`);
  }
  if (store.onThread.get(to.thread)?.has(key)) {
    if (store.visibility.get(addressKey(sender))?.has(key)) return null;
    if (rootReaches(store, sender, to)) return null; // orchestrator-reach.ts
    return reject(
      "not-visible",
      `${addressKey(sender)} cannot see ${key}; send only to instances you dispatched or ` +
        `that dispatched you`,
    );
  }
  if (isBlocked(store, to.thread, pending)) {
    return reject(
      "blocked",
      `${key} has not started: it waits for a free slot under the fan-out cap`,
    );
  }
  const sparkedAgent = pending.sparked.get(to.thread);
  if (sparkedAgent !== undefined) {
    if (sparkedAgent === to.agent) return null;
    return reject("thread-exists", `thread ${to.thread} is taken; spark onto a fresh thread`);
  }
  if (store.threads.has(to.thread)) {
    return reject("thread-exists", `thread ${to.thread} already exists; spark onto a fresh thread`);
  }
  // Past the fan-out cap a spark is not refused: it waits ([send-block]).
  return null;
}

function isBlocked(store: Store, thread: string, pending: Pending): boolean {
  if (pending.blocked.has(thread)) return true;
  return store.threads.get(thread) === "blocked" && !store.terminated.has(thread);
}

/** Which Send rule matches a Send molecule now: exactly one always does. */
export type SendHead =
  | { rule: "send-empty" }
  | { rule: "send"; mailbox: MailboxMolecule }
  | { rule: "spark" }
  | { rule: "send-block" }
  | { rule: "send-terminate"; edge: ParentMolecule }
  | { rule: "send-refuse"; rejection: Rejection };

export function classifySend(store: Store, send: SendMolecule): SendHead {
  const head = send.msgs[0];
  if (head === undefined) return { rule: "send-empty" };
  const rejection = rejectPayload(store, send.a, head);
  if (rejection !== null) return { rule: "send-refuse", rejection };
  if (head.kind === "terminate") {
    const edge = store.parents.get(head.thread)?.find((p) => p.parent === send.a.thread);
    if (edge !== undefined) return { rule: "send-terminate", edge };
    // Unreachable: rejectPayload has just found this edge.
    return { rule: "send-refuse", rejection: notParent(head) };
  }
  const mailbox = store.mailbox(addressKey(head.to));
  if (mailbox !== undefined) return { rule: "send", mailbox };
  // An instance with a state but no mailbox cannot take mail; it only arises in soups built
  // by hand, and refusing keeps exactly one Send rule enabled.
  if (store.onThread.get(head.to.thread)?.has(addressKey(head.to))) {
    return {
      rule: "send-refuse",
      rejection: { reason: "thread-exists", payload: head, message: "no mailbox to deliver to" },
    };
  }
  return wouldBlock(store, send.a, nothingPending()) ? { rule: "send-block" } : { rule: "spark" };
}

const notParent = (payload: Payload): Rejection => ({
  reason: "not-parent",
  payload,
  message: "no Parent edge to the thread being closed",
});
