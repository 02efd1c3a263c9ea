// docs/protocol.md#withdrawal [term-run]  Terminate(t) ‖ Run(A, t, X) → Terminate(t)
// The Run's consumption is recorded so the log drops what the Run had taken (a Run
// itself is not persisted: docs/protocol.md#persistence).
// Consuming it releases the instance (skeletons.ts: releaseRule).

import { releaseRule } from "./skeletons.js";

export const termRunRule = releaseRule("term-run", "Run", (m) => ({
  type: "term-run",
  a: m.a,
  consumed: m.via,
}));
