// Extension of seed 000 §9 for [send-block]'s molecule:
//   [term-blocked]  Terminate(t) ‖ Blocked(B, t, (A,t',x)) → Terminate(t)
// A withdrawn (or closed) parent's waiting sparks never start: they are t-tagged, so
// [term-final] waits for them to go, and the thread each had reserved is closed for good.

import { part, type Rule } from "./rule.js";

export const termBlockedRule: Rule<"term-blocked"> = {
  name: "term-blocked",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    return (store.blocked.get(term.thread) ?? []).map((m) => ({
      rule: "term-blocked" as const,
      molecules: [term, m],
    }));
  },
  fire(store, redex, _input, out) {
    const blocked = part(redex, 1, "Blocked");
    store.removeBlocked(blocked);
    store.terminated.add(blocked.to.thread);
    out.events.push({ type: "term-blocked", from: blocked.a, to: blocked.to });
    out.effects.push({ kind: "blocked-dropped", from: blocked.a, to: blocked.to });
  },
};
