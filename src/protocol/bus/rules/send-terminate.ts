// docs/protocol.md#message-soup [send-terminate]
//   Send(B, t, terminate(t'):msgs) ‖ Parent(t', t) → Send(B, t, msgs) ‖ Parent(t', t) ‖ Terminate(t')
// A parent closing its child: the Terminate merges its work (docs/protocol.md#workspaces).

import { headRule } from "./skeletons.js";

export const sendTerminateRule = headRule("send-terminate", (store, send, { edge }, out) => {
  store.replaceState(send, { kind: "Send", a: send.a, msgs: send.msgs.slice(1) });
  store.addTerminate({ kind: "Terminate", thread: edge.child, mode: "merge" });
  store.markTerminated(edge.child);
  out.events.push({
    type: "terminate",
    thread: edge.child,
    mode: "merge",
    origin: { rule: "send-terminate", by: send.a },
  });
});
