// seed 000 §9 [term-run]  Terminate(t) ‖ Run(A, t, X) → Terminate(t)
// The Run's consumption is recorded so the log drops what the Run had taken (§11).
// Consuming the instance's state releases the instance (seed 000 §9, §10): the engine merges
// or drops its workspace according to the Terminate's mode.

import { part, type Rule } from "./rule.js";
import { statesOn } from "./tagged.js";

export const termRunRule: Rule<"term-run"> = {
  name: "term-run",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    return statesOn(store, term.thread, "Run").map((m) => ({
      rule: "term-run" as const,
      molecules: [term, m],
    }));
  },
  fire(store, redex, _input, out) {
    const term = part(redex, 0, "Terminate");
    const m = part(redex, 1, "Run");
    store.removeState(m);
    out.events.push({ type: "term-run", a: m.a, consumed: m.via });
    out.effects.push({
      kind: "release",
      a: m.a,
      mode: term.mode,
      parent: store.lineage.get(m.a.thread) ?? null,
      rule: "term-run",
    });
  },
};
