// Extension of seed 000 §13 (the per-parent fan-out cap: "a spark that would exceed the cap
// is blocked until the parent closes an existing conversation"):
//   [send-block]  Send(B, t, (A,t',x):msgs) → Send(B, t, msgs) ‖ Blocked(B, t, (A,t',x))
// when the payload would spark (no instance on t', t' fresh) but t has `fanOutCap` live
// children, or earlier blocked sparks wait under t (first come, first served). The spark
// leaves the Send, so B's lifecycle goes on: B returns to Idle ([send-empty]) and can run,
// and close a child, which is what unblocks the spark ([unblock]).

import { classifySend } from "../routing.js";
import { part, type Rule } from "./rule.js";

export const sendBlockRule: Rule<"send-block"> = {
  name: "send-block",
  anchor: "Send",
  match(store, send) {
    if (send.kind !== "Send") return [];
    return classifySend(store, send).rule === "send-block"
      ? [{ rule: "send-block", molecules: [send] }]
      : [];
  },
  fire(store, redex, _input, out) {
    const send = part(redex, 0, "Send");
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
  },
};
