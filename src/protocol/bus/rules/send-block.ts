// cfa-bot's own rule for the per-parent fan-out cap (docs/protocol.md#configuration: a spark
// past the cap waits until the parent closes a child):
//   [send-block]  Send(B, t, (A,t',x):msgs) → Send(B, t, msgs) ‖ Blocked(B, t, (A,t',x))
// when the payload would spark (no instance on t', t' fresh) but t has `fanOutCap` live
// children, or earlier blocked sparks wait under t (first come, first served). The spark
// leaves the Send, so B's lifecycle goes on: B returns to Idle ([send-empty]) and can run,
// and close a child, which is what unblocks the spark ([unblock]).

import { headRule } from "./skeletons.js";

export const sendBlockRule = headRule("send-block", (store, send, _head, out) => {
  const [payload, ...msgs] = send.msgs;
  if (payload?.kind !== "deliver") {
    throw new Error("cfa/bus: internal: [send-block] without a deliver");
  }
  const to = { agent: payload.to.agent, thread: payload.to.thread };
  store.replaceState(send, { kind: "Send", a: send.a, msgs });
  store.addBlocked({ kind: "Blocked", a: send.a, to, content: payload.content });
  out.events.push({ type: "block", from: send.a, to, content: payload.content });
  out.effects.push({
    kind: "blocked",
    from: send.a,
    to,
    content: payload.content,
    queued: store.queued(send.a.thread),
  });
});
