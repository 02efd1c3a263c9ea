// docs/protocol.md#escalation [escalate]  Proxy(t, x, π, h) → AskHuman(t, y, π)   when π ≠ never
// The proxy picks the framed question y.

import { requireInput } from "./rule.js";
import { loneRule } from "./skeletons.js";

export const escalateRule = loneRule(
  "escalate",
  "Escalation",
  "Proxy",
  (store, proxy, input, out) => {
    const framed = requireInput("escalate", input, "the framed question");
    const { id, caller, policy } = proxy;
    store.replaceEscalation(proxy, { kind: "AskHuman", id, caller, framed, policy });
    out.events.push({ type: "escalate", id, framed });
    out.effects.push({ kind: "ask-human", id, caller, framed, policy });
  },
  (_store, proxy) => proxy.policy !== "never",
);
