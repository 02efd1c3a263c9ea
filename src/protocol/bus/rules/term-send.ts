// docs/protocol.md#withdrawal [term-send]  Terminate(t) ‖ Send(A, t, msgs) → Terminate(t)
// The in-flight broadcast is dropped.
// Consuming it releases the instance (skeletons.ts: releaseRule).

import { releaseRule } from "./skeletons.js";

export const termSendRule = releaseRule("term-send", "Send", (m) => ({
  type: "term-send",
  a: m.a,
}));
