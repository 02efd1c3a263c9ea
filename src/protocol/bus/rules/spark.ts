// docs/protocol.md#message-soup [spark]
//   Send(B, t, (A,t',x):msgs) → Send(B, t, msgs) ‖ Mailbox_A(t', [x]) ‖ Idle_A(t') ‖ Parent(t', t)
// when no instance exists on t' (sparks always open a fresh thread, which keeps Parent edges
// a tree) and B's thread stays within the fan-out cap with no spark waiting there
// (otherwise [send-block]).

import { headRule, startInstance } from "./skeletons.js";

export const sparkRule = headRule("spark", (store, send, _head, out) => {
  const [payload, ...msgs] = send.msgs;
  if (payload?.kind !== "deliver") throw new Error("cfa/bus: internal: [spark] without a deliver");
  const to = { agent: payload.to.agent, thread: payload.to.thread };
  store.replaceState(send, { kind: "Send", a: send.a, msgs });
  const content = startInstance(store, send.a, to, payload.content, out);
  out.events.push({ type: "spark", from: send.a, to, parent: send.a.thread, content });
});
