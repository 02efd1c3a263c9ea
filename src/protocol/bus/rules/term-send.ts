// seed 000 §9 [term-send]  Terminate(t) ‖ Send(A, t, msgs) → Terminate(t)
// The in-flight broadcast is dropped.
// Consuming the instance's state releases the instance (seed 000 §9, §10): the engine merges
// or drops its workspace according to the Terminate's mode.

import { part, type Rule } from "./rule.js";
import { statesOn } from "./tagged.js";

export const termSendRule: Rule<"term-send"> = {
  name: "term-send",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    return statesOn(store, term.thread, "Send").map((m) => ({
      rule: "term-send" as const,
      molecules: [term, m],
    }));
  },
  fire(store, redex, _input, out) {
    const term = part(redex, 0, "Terminate");
    const m = part(redex, 1, "Send");
    store.removeState(m);
    out.events.push({ type: "term-send", a: m.a });
    out.effects.push({
      kind: "release",
      a: m.a,
      mode: term.mode,
      parent: store.lineage.get(m.a.thread) ?? null,
      rule: "term-send",
    });
  },
};
