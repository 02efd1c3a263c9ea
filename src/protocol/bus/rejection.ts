// Routing locality (docs/protocol.md#dispatch) and the fan-out cap: why a payload may not reduce.
// The check is structural and pre-delivery; the reasons are typed so the engine can tell the agent.

import type { Payload } from "./molecules.js";

export const REJECTION_REASONS = [
  /** A deliver to an existing instance that is not in the sender's visibility set. */
  "not-visible",
  /**
   * No longer produced: a spark beyond the fan-out cap waits ([send-block]). Kept so logs
   * written before that still fold.
   */
  "fan-out-cap",
  /** A spark onto a thread that already exists: sparks always open a fresh thread. */
  "thread-exists",
  /** A terminate of a thread that is not a child of the sender's thread. */
  "not-parent",
  /** Addressing a thread that has been terminated. */
  "terminated",
  /** Mail to, or a close of, a spark still waiting under the fan-out cap ([send-block]). */
  "blocked",
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface Rejection {
  reason: RejectionReason;
  payload: Payload;
  /** A sentence for the agent: what was wrong and what to do instead. */
  message: string;
}
