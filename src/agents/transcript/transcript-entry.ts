// One line of an instance transcript (.cfa/jobs/<N>/instances/<agent>@<thread>.jsonl):
//
// - `message`: a message of a turn (a user message we built, or an assistant turn exactly as
//   the API returned it);
// - `response`: what one model response cost and why it stopped, written with (after) the
//   assistant message it produced, so a crash after k responses of a turn still knows what
//   those k responses cost — `model` is the model that answered, priced on its own;
// - `turn-end`: the end of a turn, with the turn's summed usage and last stop reason. Only turns
//   closed by a turn-end line are resumed as complete (bounded crash-loss,
//   docs/protocol.md#invariants); the lines of an unclosed last turn come back apart
//   (LoadedTranscript.partial).
//
// Transcripts written before `response` lines existed still load: they simply have none.

import * as z from "zod";
import type { Message, ModelUsage, StopReason } from "../../ports/model.js";
import { MessageSchema, ModelUsageSchema, StopReasonSchema } from "./message-schema.js";

const turn = z.number().int().positive();

export const TranscriptEntrySchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), turn, message: MessageSchema }),
  z.object({
    type: z.literal("response"),
    turn,
    model: z.string().min(1),
    usage: ModelUsageSchema,
    stop: StopReasonSchema,
    id: z.string().min(1).optional(),
  }),
  z.object({
    type: z.literal("turn-end"),
    turn,
    usage: ModelUsageSchema,
    stop: StopReasonSchema,
  }),
]);

/** The schema's shape, with the port's own types for what it carries. */
export type TranscriptEntry =
  | { type: "message"; turn: number; message: Message }
  | {
      type: "response";
      turn: number;
      model: string;
      usage: ModelUsage;
      stop: StopReason;
      id?: string;
    }
  | { type: "turn-end"; turn: number; usage: ModelUsage; stop: StopReason };
