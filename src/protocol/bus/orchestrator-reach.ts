// An extension of routing locality (docs/protocol.md#dispatch), where the protocol says what
// the orchestrator does but not how it is routed: the orchestrator observes disk and sends into
// mailboxes (recovery messages after a failure), and a failed Run surfaces as mail to the
// failing instance (docs/protocol.md#persistence). The orchestrator sparks only the leads, so
// visibility alone would refuse its recovery Send to a task's worker.
//
// Rule: a root instance (on a thread sparked from nowhere: the orchestrator's job thread) may
// address any instance of its own dispatch tree — every thread whose lineage leads back to
// the root's. Nobody else gains anything, and the tree still only grows by [spark] (which
// keeps its fresh-thread and fan-out checks). Added with the engine's turn loop, so that a
// recovery message joins the failing instance's mailbox rather than replacing what it was
// working on; the protocol's owner keeps this folder.

import type { Address } from "../address.js";
import type { Store } from "./store.js";

/** Whether the root `sender` may address `to` (in its tree) though it never saw it. */
export function rootReaches(store: Store, sender: Address, to: Address): boolean {
  if (store.threads.get(sender.thread) !== "instance" || store.lineage.has(sender.thread)) {
    return false;
  }
  if (to.thread === sender.thread) return false; // its own mail is not a Send's to make
  const seen = new Set<string>();
  for (let t: string | undefined = to.thread; t !== undefined; t = store.lineage.get(t)) {
    if (t === sender.thread) return true;
    if (seen.has(t)) return false; // a cycle cannot arise from [spark]; never loop on one
    seen.add(t);
  }
  return false;
}
