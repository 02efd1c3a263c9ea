// docs/protocol.md#message-soup [send-empty]  Send(B, t, []) → Idle_B(t)

import { loneRule } from "./skeletons.js";

export const sendEmptyRule = loneRule(
  "send-empty",
  "Send",
  "Send",
  (store, send, _input, out) => {
    store.replaceState(send, { kind: "Idle", a: send.a });
    out.events.push({ type: "send-empty", a: send.a });
  },
  (_store, send) => send.msgs.length === 0,
);
