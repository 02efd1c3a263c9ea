// seed 000 §9 [term-idle]  Terminate(t) ‖ Idle_A(t) → Terminate(t)
// Consuming the instance's state releases the instance (seed 000 §9, §10): the engine merges
// or drops its workspace according to the Terminate's mode.

import { part, type Rule } from "./rule.js";
import { statesOn } from "./tagged.js";

export const termIdleRule: Rule<"term-idle"> = {
  name: "term-idle",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    return statesOn(store, term.thread, "Idle").map((m) => ({
      rule: "term-idle" as const,
      molecules: [term, m],
    }));
  },
  fire(store, redex, _input, out) {
    const term = part(redex, 0, "Terminate");
    const m = part(redex, 1, "Idle");
    store.removeState(m);
    out.events.push({ type: "term-idle", a: m.a });
    out.effects.push({
      kind: "release",
      a: m.a,
      mode: term.mode,
      parent: store.lineage.get(m.a.thread) ?? null,
      rule: "term-idle",
    });
  },
};
