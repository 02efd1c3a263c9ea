// seed 000 §7 [escalate]  Proxy(t, x, π, h) → AskHuman(t, y, π)   when π ≠ never
// The proxy picks the framed question y.

import { part, requireInput, type Rule } from "./rule.js";

export const escalateRule: Rule<"escalate"> = {
  name: "escalate",
  anchor: "Escalation",
  match(_store, proxy) {
    if (proxy.kind !== "Proxy" || proxy.policy === "never") return [];
    return [{ rule: "escalate", molecules: [proxy] }];
  },
  fire(store, redex, input, out) {
    const proxy = part(redex, 0, "Proxy");
    const framed = requireInput("escalate", input, "the framed question");
    const { id, caller, policy } = proxy;
    store.replaceEscalation(proxy, { kind: "AskHuman", id, caller, framed, policy });
    out.events.push({ type: "escalate", id, framed });
    out.effects.push({ kind: "ask-human", id, caller, framed, policy });
  },
};
