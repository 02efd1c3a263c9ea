// The API's message onto the port's ModelResponse, each content block kept exactly as it came:
// the API's own object, every field in the order it sent them, thinking and
// redacted thinking with their signatures, tool inputs with their keys in the order the model
// wrote them. The API requires each assistant turn back unchanged
// (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks,
// "Send each assistant turn back exactly as the API returned it"), so a block of a type the
// port does not model is kept whole as an "opaque" block and sent back too, never dropped.

import type { Message as ApiMessage } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { AssistantBlock, ModelResponse, StopReason } from "../../ports/model.js";
import { STOP_REASONS } from "../../ports/model.js";
import { mapUsage } from "./map-usage.js";

export type UnmappableResponse = { problem: string };

const MODELLED = new Set(["text", "tool_use", "thinking", "redacted_thinking"]);

export function mapResponse(message: ApiMessage): ModelResponse | UnmappableResponse {
  const content: AssistantBlock[] = [];
  for (const block of message.content as unknown as Record<string, unknown>[]) {
    const copy = asReceived(block);
    if (typeof copy.type !== "string") return { problem: "a content block without a type" };
    content.push(
      MODELLED.has(copy.type)
        ? (copy as unknown as AssistantBlock)
        : { type: "opaque", block: copy as { type: string } & Record<string, unknown> },
    );
  }
  const stop = message.stop_reason;
  if (stop === "model_context_window_exceeded") {
    // https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons: "Treat the
    // response as truncated". The loop keeps every request under the window with a margin
    // (src/agents/loop/context-budget.ts), so reaching it means the estimate was wrong.
    return {
      problem:
        "stop_reason model_context_window_exceeded: the conversation no longer fits the " +
        "model's context window; shorten the transcript or start a fresh instance",
    };
  }
  if (!isStopReason(stop)) return { problem: `stop_reason ${JSON.stringify(stop)}` };
  const details = (
    message as { stop_details?: { category?: unknown; explanation?: unknown } | null }
  ).stop_details;
  return {
    content,
    stopReason: stop,
    usage: mapUsage(message.usage),
    model: message.model,
    ...(typeof message.id === "string" && message.id !== "" ? { id: message.id } : {}),
    ...(stop === "refusal"
      ? {
          refusal: {
            category: typeof details?.category === "string" ? details.category : null,
            explanation: typeof details?.explanation === "string" ? details.explanation : null,
          },
        }
      : {}),
  };
}

/**
 * A plain copy with the keys in the order received. A JSON round trip, not structuredClone:
 * it drops the SDK's non-enumerable bookkeeping (the stream's partial-JSON buffer) and
 * `undefined` fields, exactly what the wire would carry.
 */
function asReceived(block: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(block)) as Record<string, unknown>;
}

function isStopReason(value: unknown): value is StopReason {
  return typeof value === "string" && (STOP_REASONS as readonly string[]).includes(value);
}
