// docs/protocol.md#escalation [ask]  AskQuestion(A, t, x, π) → Proxy(t, x, π, fresh) ‖ Idle_A(t)
// plus Parent(escalation:<id>, t): escalations are sparked like any dispatch, so a
// withdraw cascade from t reaches the pending escalation (docs/protocol.md#withdrawal).

import { escalationThread } from "../molecules.js";
import { loneRule } from "./skeletons.js";

export const askRule = loneRule(
  "ask",
  "AskQuestion",
  "AskQuestion",
  (store, asked, _input, out) => {
    const { id, question, policy } = asked;
    const thread = escalationThread(id);
    store.replaceState(asked, { kind: "Idle", a: asked.a });
    store.addEscalation({ kind: "Proxy", id, caller: asked.a, question, policy, h: "fresh" });
    store.addParent({ kind: "Parent", child: thread, parent: asked.a.thread });
    store.linkEscalation(thread, asked.a.thread);
    out.events.push({ type: "ask", id, caller: asked.a, question, policy });
    out.effects.push({ kind: "proxy-turn", id, caller: asked.a, question, policy, h: "fresh" });
  },
);
