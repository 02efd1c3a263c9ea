// seed 000 §8 [interrupt]  Run(A, t, X) ‖ Interrupt(t, Y) → Run(A, t, Y)
// The work on X is abandoned; both consumptions become durable at the turn's end.

import { part, type Rule } from "./rule.js";

export const interruptRule: Rule<"interrupt"> = {
  name: "interrupt",
  anchor: "Run",
  match(store, run) {
    if (run.kind !== "Run") return [];
    const pending = store.interrupts.get(run.a.thread) ?? [];
    return pending.map((int) => ({ rule: "interrupt" as const, molecules: [run, int] }));
  },
  fire(store, redex, _input, out) {
    const run = part(redex, 0, "Run");
    const int = part(redex, 1, "Interrupt");
    store.removeInterrupt(int);
    store.replaceState(run, {
      kind: "Run",
      a: run.a,
      msg: int.content,
      via: [...run.via, { from: "interrupt", content: int.content }],
    });
    out.events.push({ type: "wake", a: run.a, rule: "interrupt", content: int.content });
  },
};
