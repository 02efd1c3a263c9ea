// docs/protocol.md#withdrawal [term-idle]  Terminate(t) ‖ Idle_A(t) → Terminate(t)
// Consuming it releases the instance (skeletons.ts: releaseRule).

import { releaseRule } from "./skeletons.js";

export const termIdleRule = releaseRule("term-idle", "Idle", (m) => ({
  type: "term-idle",
  a: m.a,
}));
