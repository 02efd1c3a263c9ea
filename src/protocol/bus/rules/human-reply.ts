// seed 000 §7 [human-reply]  AskHuman(t, y, π) → Proxy(t, x', π, post-human)
// x' is what the proxy works on next: the human's reply.

import { part, requireInput, type Rule } from "./rule.js";

export const humanReplyRule: Rule<"human-reply"> = {
  name: "human-reply",
  anchor: "Escalation",
  match(_store, waiting) {
    return waiting.kind === "AskHuman" ? [{ rule: "human-reply", molecules: [waiting] }] : [];
  },
  fire(store, redex, input, out) {
    const waiting = part(redex, 0, "AskHuman");
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
};
