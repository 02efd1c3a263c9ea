// seed 000 §5 [send-terminate]
//   Send(B, t, terminate(t'):msgs) ‖ Parent(t', t) → Send(B, t, msgs) ‖ Parent(t', t) ‖ Terminate(t')
// A parent closing its child: the Terminate merges (seed 000 §10).

import { classifySend } from "../routing.js";
import { part, type Rule } from "./rule.js";

export const sendTerminateRule: Rule<"send-terminate"> = {
  name: "send-terminate",
  anchor: "Send",
  match(store, send) {
    if (send.kind !== "Send") return [];
    const head = classifySend(store, send);
    return head.rule === "send-terminate"
      ? [{ rule: "send-terminate", molecules: [send, head.edge] }]
      : [];
  },
  fire(store, redex, _input, out) {
    const send = part(redex, 0, "Send");
    const edge = part(redex, 1, "Parent");
    store.replaceState(send, { kind: "Send", a: send.a, msgs: send.msgs.slice(1) });
    store.addTerminate({ kind: "Terminate", thread: edge.child, mode: "merge" });
    store.markTerminated(edge.child);
    out.events.push({
      type: "terminate",
      thread: edge.child,
      mode: "merge",
      origin: { rule: "send-terminate", by: send.a },
    });
  },
};
