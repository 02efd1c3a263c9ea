// docs/protocol.md#message-soup [nosend-step]  Run(A, t, m) → Idle_A(t)

import { loneRule } from "./skeletons.js";

export const nosendStepRule = loneRule("nosend-step", "Run", "Run", (store, run, _input, out) => {
  store.replaceState(run, { kind: "Idle", a: run.a });
  out.events.push({ type: "turn-end", a: run.a, rule: "nosend-step", consumed: run.via });
});
