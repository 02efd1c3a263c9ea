// cfa-bot's own withdrawal rule (docs/protocol.md#withdrawal), for [send-block]'s molecule:
//   [term-blocked]  Terminate(t) ‖ Blocked(B, t, (A,t',x)) → Terminate(t)
// A withdrawn (or closed) parent's waiting sparks never start: they are t-tagged, so
// [term-final] waits for them to go, and the thread each had reserved is closed for good.

import { terminateRule } from "./skeletons.js";

export const termBlockedRule = terminateRule(
  "term-blocked",
  (store, thread) => store.blocked.get(thread) ?? [],
  (store, blocked, _term, out) => {
    store.removeBlocked(blocked);
    store.terminated.add(blocked.to.thread);
    out.events.push({ type: "term-blocked", from: blocked.a, to: blocked.to });
    out.effects.push({ kind: "blocked-dropped", from: blocked.a, to: blocked.to });
  },
);
