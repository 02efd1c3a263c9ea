// docs/protocol.md#message-soup [send]
//   Send(B, t, (A,t',x):msgs) ‖ Mailbox_A(t', as) → Send(B, t, msgs) ‖ Mailbox_A(t', as ++ [x])
// only when (A, t') is in B's visibility set (routing locality, docs/protocol.md#dispatch).

import { addressKey } from "../../address.js";
import { stamp } from "./rule.js";
import { headRule } from "./skeletons.js";

export const sendRule = headRule("send", (store, send, { mailbox }, out) => {
  const [payload, ...msgs] = send.msgs;
  if (payload?.kind !== "deliver") throw new Error("cfa/bus: internal: [send] without a deliver");
  const content = stamp(payload.content, send.a);
  store.replaceState(send, { kind: "Send", a: send.a, msgs });
  store.appendMail(mailbox, content);
  // docs/protocol.md#dispatch: participating on a thread teaches the participants about each other.
  store.see(addressKey(mailbox.a), addressKey(send.a));
  out.events.push({ type: "deliver", from: send.a, to: mailbox.a, content });
});
