// cfa-bot's own withdrawal rule (docs/protocol.md#withdrawal):
//   [term-int]  Terminate(t) ‖ Interrupt(t, Y) → Terminate(t)
// An Interrupt aimed at a withdrawn thread has nobody left to redirect (an intervention is
// scoped by its thread); it is t-tagged, so [term-final] waits for it to go.

import { terminateRule } from "./skeletons.js";

export const termIntRule = terminateRule(
  "term-int",
  (store, thread) => store.interrupts.get(thread) ?? [],
  (store, int, _term, out) => {
    store.removeInterrupt(int);
    out.events.push({ type: "term-int", thread: int.thread, content: int.content });
  },
);
