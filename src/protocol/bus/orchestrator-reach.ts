// Extension to seed 000 §6 routing, where the seed is explicit about what the orchestrator
// does but silent on how it is routed: §5 ("tier-specific behavior") has the
// orchestrator-as-agent observe disk and Send into mailboxes — "recovery messages after a
// failure" — and §11 has a failed Run surface "as a Send into the failing instance's
// mailbox". The orchestrator sparks only the leads, so §6 visibility alone would refuse its
// recovery Send to a task's worker.
//
// Rule: a root instance (on a thread sparked from nowhere: the orchestrator's job thread) may
// address any instance of its own dispatch tree — every thread whose lineage leads back to
// the root's. Nobody else gains anything, and the tree still only grows by [spark] (which
// keeps its fresh-thread and fan-out checks). Added with the engine's turn loop (issue 11
// point 1, issue 9 point 6); the protocol's owner keeps this folder.

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
