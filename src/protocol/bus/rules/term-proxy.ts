// Extension of seed 000 §9: [term-proxy]
//   Terminate(escalation:<id>) ‖ Proxy(id, …) → Terminate(escalation:<id>)
//   Terminate(escalation:<id>) ‖ AskHuman(id, …) → Terminate(escalation:<id>)
// [ask] links escalation:<id> under the caller's thread, so a withdraw cascade reaches a
// pending escalation; this consumes it, and the engine retracts the question it posted.

import type { Rule } from "./rule.js";
import { escalationsOn } from "./tagged.js";

export const termProxyRule: Rule<"term-proxy"> = {
  name: "term-proxy",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    return escalationsOn(store, term.thread).map((m) => ({
      rule: "term-proxy" as const,
      molecules: [term, m],
    }));
  },
  fire(store, redex, _input, out) {
    const m = redex.molecules[1];
    if (m?.kind !== "Proxy" && m?.kind !== "AskHuman") {
      throw new Error("cfa/bus: internal: [term-proxy] expected Proxy or AskHuman");
    }
    store.removeEscalation(m);
    out.events.push({ type: "term-proxy", id: m.id });
    out.effects.push({ kind: "cancelled", id: m.id, caller: m.caller });
  },
};
