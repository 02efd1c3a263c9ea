// seed 000 §5 [nosend-step]  Run(A, t, m) → Idle_A(t)

import { part, type Rule } from "./rule.js";

export const nosendStepRule: Rule<"nosend-step"> = {
  name: "nosend-step",
  anchor: "Run",
  match(_store, run) {
    return run.kind === "Run" ? [{ rule: "nosend-step", molecules: [run] }] : [];
  },
  fire(store, redex, _input, out) {
    const run = part(redex, 0, "Run");
    store.replaceState(run, { kind: "Idle", a: run.a });
    out.events.push({ type: "turn-end", a: run.a, rule: "nosend-step", consumed: run.via });
  },
};
