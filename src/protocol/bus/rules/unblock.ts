// cfa-bot's own rule for the fan-out cap (docs/protocol.md#configuration), the other half of
// [send-block]:
//   [unblock]  Blocked(B, t, (A,t',x)) → Mailbox_A(t', [x]) ‖ Idle_A(t') ‖ Parent(t', t)
// for the oldest Blocked under t, when t is live and has fewer than `fanOutCap` live children.
// Its right-hand side is [spark]'s, with a spark's visibility (docs/protocol.md#dispatch):
// B sees (A, t'), A is initialised with (B, t); the runtime installs the instance as at any
// spark.

import { loneRule, startInstance } from "./skeletons.js";

export const unblockRule = loneRule(
  "unblock",
  "Blocked",
  "Blocked",
  (store, blocked, _input, out) => {
    const { to } = blocked;
    store.removeBlocked(blocked);
    const content = startInstance(store, blocked.a, to, blocked.content, out);
    out.events.push({ type: "unblock", from: blocked.a, to, parent: blocked.a.thread, content });
  },
  (store, blocked) => store.unblockable(blocked),
);
