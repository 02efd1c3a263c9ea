// seed 000 §5 [spark]
//   Send(B, t, (A,t',x):msgs) → Send(B, t, msgs) ‖ Mailbox_A(t', [x]) ‖ Idle_A(t') ‖ Parent(t', t)
// when no instance exists on t' (sparks always open a fresh thread, which keeps Parent edges
// a tree) and B's thread stays within the fan-out cap with no spark waiting there (§13;
// otherwise [send-block]).

import { addressKey } from "../../address.js";
import { classifySend } from "../routing.js";
import { part, stamp, type Rule } from "./rule.js";

export const sparkRule: Rule<"spark"> = {
  name: "spark",
  anchor: "Send",
  match(store, send) {
    if (send.kind !== "Send") return [];
    return classifySend(store, send).rule === "spark" ? [{ rule: "spark", molecules: [send] }] : [];
  },
  fire(store, redex, _input, out) {
    const send = part(redex, 0, "Send");
    const [payload, ...msgs] = send.msgs;
    if (payload?.kind !== "deliver")
      throw new Error("cfa/bus: internal: [spark] without a deliver");
    const to = { agent: payload.to.agent, thread: payload.to.thread };
    const parent = send.a.thread;
    const content = stamp(payload.content, send.a);
    store.replaceState(send, { kind: "Send", a: send.a, msgs });
    store.openInstanceThread(to.thread, parent);
    store.addParent({ kind: "Parent", child: to.thread, parent });
    store.addMailbox({ kind: "Mailbox", a: to, queue: [content] });
    store.addState({ kind: "Idle", a: to });
    // seed 000 §6: B's visibility gains (A, t'); A's is initialised with (B, t).
    store.see(addressKey(send.a), addressKey(to));
    store.see(addressKey(to), addressKey(send.a));
    out.events.push({ type: "spark", from: send.a, to, parent, content });
    out.effects.push({ kind: "spark", a: to, parent, from: send.a, first: content });
  },
};
