// docs/protocol.md#escalation [human-reply]  AskHuman(t, y, π) → Proxy(t, x', π, post-human)
// x' is what the proxy works on next: the human's reply.

import { requireInput } from "./rule.js";
import { loneRule } from "./skeletons.js";

export const humanReplyRule = loneRule(
  "human-reply",
  "Escalation",
  "AskHuman",
  (store, waiting, input, out) => {
    const reply = requireInput("human-reply", input, "the human's reply");
    const { id, caller, policy } = waiting;
    store.replaceEscalation(waiting, {
      kind: "Proxy",
      id,
      caller,
      question: reply,
      policy,
      h: "post-human",
    });
    out.events.push({ type: "human-reply", id, reply });
    out.effects.push({ kind: "proxy-turn", id, caller, question: reply, policy, h: "post-human" });
  },
);
