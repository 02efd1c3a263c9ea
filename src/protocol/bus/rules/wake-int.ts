// docs/protocol.md#intervention [wake-int]  Idle_A(t) ‖ Interrupt(t, Y) → Run(A, t, Y)
// Bypasses the mailbox; informational in the log like [wake], since a Run is not persisted
// (docs/protocol.md#persistence).

import { interruptOn } from "./skeletons.js";

export const wakeIntRule = interruptOn("wake-int", "Ready", "Idle");
