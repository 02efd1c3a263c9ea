// zod schemas of the Model port's messages, for reading transcripts back: a transcript is a
// file in the job branch, so it is validated where it enters like any other input.
//
// They VALIDATE only: the loader keeps the parsed JSON itself, because zod's output of a
// loose object puts the known keys first (and drops an own `__proto__` key), and an assistant
// turn must go back to the API exactly as it came. Assistant blocks are loose:
// whatever else the API put on a block (`citations`, `caller`, …) is kept.

import * as z from "zod";
import { STOP_REASONS } from "../../ports/model.js";

export const TextBlockSchema = z.object({ type: z.literal("text"), text: z.string() });
export const ToolResultBlockSchema = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string().min(1),
  content: z.string(),
  is_error: z.boolean().optional(),
});

const AssistantTextSchema = z.looseObject({ type: z.literal("text"), text: z.string() });
export const ToolUseBlockSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.unknown(),
});
export const ThinkingBlockSchema = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  signature: z.string(),
});
export const RedactedThinkingBlockSchema = z.looseObject({
  type: z.literal("redacted_thinking"),
  data: z.string(),
});
export const OpaqueBlockSchema = z.object({
  type: z.literal("opaque"),
  block: z.looseObject({ type: z.string().min(1) }),
});

export const MessageSchema = z.discriminatedUnion("role", [
  z.object({
    role: z.literal("user"),
    content: z.array(z.discriminatedUnion("type", [TextBlockSchema, ToolResultBlockSchema])),
    restart: z.literal(true).optional(),
  }),
  z.object({
    role: z.literal("assistant"),
    content: z.array(
      z.discriminatedUnion("type", [
        AssistantTextSchema,
        ToolUseBlockSchema,
        ThinkingBlockSchema,
        RedactedThinkingBlockSchema,
        OpaqueBlockSchema,
      ]),
    ),
  }),
]);

const tokens = z.number().int().nonnegative();
export const ModelUsageSchema = z.object({
  inputTokens: tokens,
  outputTokens: tokens,
  cacheReadTokens: tokens,
  cacheWriteTokens: tokens,
  cacheWrite1hTokens: tokens.optional(),
});

export const StopReasonSchema = z.enum(STOP_REASONS);
