// cfa-bot's own withdrawal rule (docs/protocol.md#withdrawal):
//   [term-ask]  Terminate(t) ‖ AskQuestion(A, t, x, π) → Terminate(t)
// An AskQuestion is the instance's state between [ask-step] and [ask]; like Run and Send it
// is t-tagged, and [term-final] could not fire while it remained.
// Consuming it releases the instance (skeletons.ts: releaseRule).

import { releaseRule } from "./skeletons.js";

export const termAskRule = releaseRule("term-ask", "AskQuestion", (m) => ({
  type: "term-ask",
  a: m.a,
  id: m.id,
}));
