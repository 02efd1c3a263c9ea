// One line of an instance transcript (.cfa/jobs/<N>/instances/<agent>@<thread>.jsonl): a
// message of a turn, or the end of a turn with what it cost and why it stopped. Only turns
// closed by a turn-end line are resumed (seed 000 §11: crash-loss is bounded to one turn).

import * as z from "zod";
import { MessageSchema, ModelUsageSchema, StopReasonSchema } from "./message-schema.js";

const turn = z.number().int().positive();

export const TranscriptEntrySchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), turn, message: MessageSchema }),
  z.object({
    type: z.literal("turn-end"),
    turn,
    usage: ModelUsageSchema,
    stop: StopReasonSchema,
  }),
]);

export type TranscriptEntry = z.infer<typeof TranscriptEntrySchema>;
