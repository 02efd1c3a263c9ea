// Extension of seed 000 §9: [term-ask]  Terminate(t) ‖ AskQuestion(A, t, x, π) → Terminate(t)
// An AskQuestion is the instance's state between [ask-step] and [ask]; like Run and Send it
// is t-tagged, and [term-final] could not fire while it remained.
// Consuming the instance's state releases the instance (seed 000 §9, §10): the engine merges
// or drops its workspace according to the Terminate's mode.

import { part, type Rule } from "./rule.js";
import { statesOn } from "./tagged.js";

export const termAskRule: Rule<"term-ask"> = {
  name: "term-ask",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    return statesOn(store, term.thread, "AskQuestion").map((m) => ({
      rule: "term-ask" as const,
      molecules: [term, m],
    }));
  },
  fire(store, redex, _input, out) {
    const term = part(redex, 0, "Terminate");
    const m = part(redex, 1, "AskQuestion");
    store.removeState(m);
    out.events.push({ type: "term-ask", a: m.a, id: m.id });
    out.effects.push({
      kind: "release",
      a: m.a,
      mode: term.mode,
      parent: store.lineage.get(m.a.thread) ?? null,
      rule: "term-ask",
    });
  },
};
