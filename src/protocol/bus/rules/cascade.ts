// docs/protocol.md#withdrawal [cascade]
//   Terminate(t) ‖ Parent(t', t) → Terminate(t) ‖ Terminate(t')
// The child inherits the parent's mode (a withdraw drops the whole subtree; closing a state
// thread merges it). The edge is consumed "so no thread is terminated twice": a child that
// was already closed by [send-terminate] just loses its edge.

import { part, type Rule } from "./rule.js";

export const cascadeRule: Rule<"cascade"> = {
  name: "cascade",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    const out = [];
    for (const child of store.childrenOf.get(term.thread) ?? []) {
      for (const edge of store.parents.get(child) ?? []) {
        if (edge.parent === term.thread)
          out.push({ rule: "cascade" as const, molecules: [term, edge] });
      }
    }
    return out;
  },
  fire(store, redex, _input, out) {
    const term = part(redex, 0, "Terminate");
    const edge = part(redex, 1, "Parent");
    store.removeParent(edge);
    if (!store.terminated.has(edge.child)) {
      store.addTerminate({ kind: "Terminate", thread: edge.child, mode: term.mode });
      store.markTerminated(edge.child);
    }
    out.events.push({
      type: "terminate",
      thread: edge.child,
      mode: term.mode,
      origin: { rule: "cascade", parent: term.thread },
    });
  },
};
