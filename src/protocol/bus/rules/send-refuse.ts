// Extension of seed 000 §6 "Invalid Sends do not reduce":
//   Send(B, t, p:msgs) → Send(B, t, msgs)   when p fails the routing check
// The refused payload reaches nobody; its sender is told (effect `refused`) and its Send can
// still reach [send-empty], so the instance is not stuck forever.

import { classifySend } from "../routing.js";
import { part, type Rule } from "./rule.js";

export const sendRefuseRule: Rule<"send-refuse"> = {
  name: "send-refuse",
  anchor: "Send",
  match(store, send) {
    if (send.kind !== "Send") return [];
    const head = classifySend(store, send);
    return head.rule === "send-refuse" ? [{ rule: "send-refuse", molecules: [send] }] : [];
  },
  fire(store, redex, _input, out) {
    const send = part(redex, 0, "Send");
    const head = classifySend(store, send);
    if (head.rule !== "send-refuse") throw new Error("cfa/bus: internal: [send-refuse] on valid");
    store.replaceState(send, { kind: "Send", a: send.a, msgs: send.msgs.slice(1) });
    const { payload, reason } = head.rejection;
    out.events.push({ type: "refuse", from: send.a, payload, reason });
    out.effects.push({ kind: "refused", from: send.a, payload, rejection: head.rejection });
  },
};
