// Builds a store holding exactly the molecules and relations of a snapshot (Soup.from), for
// tests and tools; relations the snapshot leaves out are derived from its molecules.

import { escalationIdOf, escalationThread, type Molecule } from "./molecules.js";
import { BusUsageError } from "./errors.js";
import type { SoupSnapshot } from "./soup-snapshot.js";
import { Store, type ThreadKind } from "./store.js";

export function storeFromSnapshot(
  snapshot: Partial<SoupSnapshot> & { molecules: Molecule[] },
  fanOutCap: number,
): Store {
  const s = new Store(fanOutCap);
  for (const m of snapshot.molecules) {
    addMolecule(s, m.kind === "Mailbox" ? { ...m, queue: m.queue.slice() } : m);
  }
  const threads = snapshot.threads ?? deriveThreads(snapshot.molecules);
  const lineage =
    snapshot.lineage ??
    snapshot.molecules.flatMap((m) =>
      m.kind === "Parent" ? [[m.child, m.parent] as [string, string]] : [],
    );
  const terminated =
    snapshot.terminated ??
    snapshot.molecules.flatMap((m) => (m.kind === "Terminate" ? [m.thread] : []));
  for (const [thread, kind] of threads) {
    if (kind === "escalation") s.openEscalationThread(thread, escalationIdOf(thread) ?? thread);
    else s.threads.set(thread, kind);
  }
  for (const [child, parent] of lineage) s.lineage.set(child, parent);
  for (const thread of terminated) s.terminated.add(thread);
  for (const [child, parent] of lineage) {
    if (s.isLiveInstanceThread(child))
      s.liveChildren.set(parent, (s.liveChildren.get(parent) ?? 0) + 1);
  }
  for (const [viewer, seen] of snapshot.visibility ?? []) for (const k of seen) s.see(viewer, k);
  return s;
}

function addMolecule(s: Store, m: Molecule): void {
  switch (m.kind) {
    case "Idle":
    case "Run":
    case "Send":
    case "AskQuestion":
      return s.addState(m);
    case "Mailbox":
      return s.addMailbox(m);
    case "Parent":
      return s.addParent(m);
    case "Proxy":
    case "AskHuman":
      return s.addEscalation(m);
    case "Interrupt":
      return s.addInterrupt(m);
    case "Terminate":
      return s.addTerminate(m);
    case "Blocked":
      return s.addBlocked(m);
    default: {
      const never: never = m;
      throw new BusUsageError(`unknown molecule ${JSON.stringify(never)}`);
    }
  }
}

function deriveThreads(molecules: Molecule[]): [string, ThreadKind][] {
  const out = new Map<string, ThreadKind>();
  for (const m of molecules) {
    if (m.kind === "Proxy" || m.kind === "AskHuman" || m.kind === "AskQuestion") {
      out.set(escalationThread(m.id), "escalation");
    }
  }
  for (const m of molecules) {
    if (m.kind === "Blocked") out.set(m.to.thread, "blocked");
  }
  for (const m of molecules) {
    if ("a" in m && !out.has(m.a.thread)) out.set(m.a.thread, "instance");
    if (m.kind === "Parent" && !out.has(m.child)) out.set(m.child, "instance");
  }
  return [...out];
}
