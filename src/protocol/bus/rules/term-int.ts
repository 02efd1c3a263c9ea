// Extension of seed 000 §9: [term-int]  Terminate(t) ‖ Interrupt(t, Y) → Terminate(t)
// An Interrupt aimed at a withdrawn thread has nobody left to redirect (§8 "scoping rides on
// thread choice"); it is t-tagged, so [term-final] waits for it to go.

import { part, type Rule } from "./rule.js";

export const termIntRule: Rule<"term-int"> = {
  name: "term-int",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    return (store.interrupts.get(term.thread) ?? []).map((m) => ({
      rule: "term-int" as const,
      molecules: [term, m],
    }));
  },
  fire(store, redex, _input, out) {
    const int = part(redex, 1, "Interrupt");
    store.removeInterrupt(int);
    out.events.push({ type: "term-int", thread: int.thread, content: int.content });
  },
};
