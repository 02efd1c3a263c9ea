// docs/protocol.md#intervention [interrupt]  Run(A, t, X) ‖ Interrupt(t, Y) → Run(A, t, Y)
// The work on X is abandoned; both consumptions become durable at the turn's end.

import { interruptOn } from "./skeletons.js";

export const interruptRule = interruptOn("interrupt", "Run", "Run");
