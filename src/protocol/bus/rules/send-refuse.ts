// cfa-bot's own rule, since an invalid Send does not reduce (docs/protocol.md#dispatch):
//   Send(B, t, p:msgs) → Send(B, t, msgs)   when p fails the routing check
// The refused payload reaches nobody; its sender is told (effect `refused`) and its Send can
// still reach [send-empty], so the instance is not stuck forever.

import { headRule } from "./skeletons.js";

export const sendRefuseRule = headRule("send-refuse", (store, send, head, out) => {
  store.replaceState(send, { kind: "Send", a: send.a, msgs: send.msgs.slice(1) });
  const { payload, reason } = head.rejection;
  out.events.push({ type: "refuse", from: send.a, payload, reason });
  out.effects.push({ kind: "refused", from: send.a, payload, rejection: head.rejection });
});
