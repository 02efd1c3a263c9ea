// seed 000 §5 [send-empty]  Send(B, t, []) → Idle_B(t)

import { part, type Rule } from "./rule.js";

export const sendEmptyRule: Rule<"send-empty"> = {
  name: "send-empty",
  anchor: "Send",
  match(_store, send) {
    if (send.kind !== "Send" || send.msgs.length > 0) return [];
    return [{ rule: "send-empty", molecules: [send] }];
  },
  fire(store, redex, _input, out) {
    const send = part(redex, 0, "Send");
    store.replaceState(send, { kind: "Idle", a: send.a });
    out.events.push({ type: "send-empty", a: send.a });
  },
};
