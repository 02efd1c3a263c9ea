// What a Terminate(t) can reach: the molecules tagged with thread t (docs/protocol.md#withdrawal).

import type { EscalationMolecule, InstanceMolecule, MailboxMolecule } from "../molecules.js";
import type { Store } from "../store.js";

/** Every instance-state molecule of kind `kind` on `thread` (duplicates included). */
export function statesOn<K extends InstanceMolecule["kind"]>(
  store: Store,
  thread: string,
  kind: K,
): Extract<InstanceMolecule, { kind: K }>[] {
  const out: Extract<InstanceMolecule, { kind: K }>[] = [];
  for (const key of store.onThread.get(thread) ?? []) {
    for (const m of store.states.get(key) ?? []) {
      if (m.kind === kind) out.push(m as Extract<InstanceMolecule, { kind: K }>);
    }
  }
  return out;
}

export function mailboxesOn(store: Store, thread: string): MailboxMolecule[] {
  const out: MailboxMolecule[] = [];
  for (const key of store.onThread.get(thread) ?? []) out.push(...(store.mailboxes.get(key) ?? []));
  return out;
}

export function escalationsOn(store: Store, thread: string): EscalationMolecule[] {
  const id = store.escalationIds.get(thread);
  return id === undefined ? [] : (store.escalations.get(id) ?? []);
}

/** True when nothing but the Terminate itself is tagged with `thread` ([term-final]). */
export function untagged(store: Store, thread: string): boolean {
  return (
    !store.onThread.has(thread) &&
    !store.interrupts.has(thread) &&
    !store.childrenOf.has(thread) &&
    !store.blocked.has(thread) &&
    escalationsOn(store, thread).length === 0
  );
}
