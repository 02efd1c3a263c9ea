// seed 000 §8 [wake-int]  Idle_A(t) ‖ Interrupt(t, Y) → Run(A, t, Y)
// Bypasses the mailbox; informational in the log like [wake] (§11).

import { interruptOn } from "./skeletons.js";

export const wakeIntRule = interruptOn("wake-int", "Ready", "Idle");
