// seed 000 §8 [wake-int]  Idle_A(t) ‖ Interrupt(t, Y) → Run(A, t, Y)
// Bypasses the mailbox; informational in the log like [wake] (§11).

import { part, type Rule } from "./rule.js";

export const wakeIntRule: Rule<"wake-int"> = {
  name: "wake-int",
  anchor: "Ready",
  match(store, idle) {
    if (idle.kind !== "Idle") return [];
    const pending = store.interrupts.get(idle.a.thread) ?? [];
    return pending.map((int) => ({ rule: "wake-int" as const, molecules: [idle, int] }));
  },
  fire(store, redex, _input, out) {
    const idle = part(redex, 0, "Idle");
    const int = part(redex, 1, "Interrupt");
    store.removeInterrupt(int);
    store.replaceState(idle, {
      kind: "Run",
      a: idle.a,
      msg: int.content,
      via: [{ from: "interrupt", content: int.content }],
    });
    out.events.push({ type: "wake", a: idle.a, rule: "wake-int", content: int.content });
  },
};
