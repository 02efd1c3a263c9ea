// seed 000 §5 [send]
//   Send(B, t, (A,t',x):msgs) ‖ Mailbox_A(t', as) → Send(B, t, msgs) ‖ Mailbox_A(t', as ++ [x])
// only when (A, t') is in B's visibility set (§6 routing validity).

import { addressKey } from "../../address.js";
import { classifySend } from "../routing.js";
import { part, stamp, type Rule } from "./rule.js";

export const sendRule: Rule<"send"> = {
  name: "send",
  anchor: "Send",
  match(store, send) {
    if (send.kind !== "Send") return [];
    const head = classifySend(store, send);
    return head.rule === "send" ? [{ rule: "send", molecules: [send, head.mailbox] }] : [];
  },
  fire(store, redex, _input, out) {
    const send = part(redex, 0, "Send");
    const mailbox = part(redex, 1, "Mailbox");
    const [payload, ...msgs] = send.msgs;
    if (payload?.kind !== "deliver") throw new Error("cfa/bus: internal: [send] without a deliver");
    const content = stamp(payload.content, send.a);
    store.replaceState(send, { kind: "Send", a: send.a, msgs });
    store.appendMail(mailbox, content);
    // seed 000 §6: participating on a thread teaches the participants about each other.
    store.see(addressKey(mailbox.a), addressKey(send.a));
    out.events.push({ type: "deliver", from: send.a, to: mailbox.a, content });
  },
};
