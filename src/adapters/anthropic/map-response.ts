// The API's message onto the port's ModelResponse, thinking blocks included (the transcript
// keeps them so a later process can send them back). Anything else the port cannot carry is
// an error rather than a silent drop: this adapter enables no server tools, so such a block
// means the request or the API changed under us.

import type { Message as ApiMessage } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { AssistantBlock, ModelResponse, StopReason } from "../../ports/model.js";
import { STOP_REASONS } from "../../ports/model.js";
import { mapUsage } from "./map-usage.js";

export type UnmappableResponse = { problem: string };

export function mapResponse(message: ApiMessage): ModelResponse | UnmappableResponse {
  const content: AssistantBlock[] = [];
  for (const block of message.content) {
    if (block.type === "text") content.push({ type: "text", text: block.text });
    else if (block.type === "tool_use") {
      content.push({ type: "tool_use", id: block.id, name: block.name, input: block.input });
    } else if (block.type === "thinking") {
      content.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
    } else if (block.type === "redacted_thinking") {
      content.push({ type: "redacted_thinking", data: block.data });
    } else return { problem: `a "${block.type}" content block, which the Model port cannot carry` };
  }
  const stop = message.stop_reason;
  if (stop === "model_context_window_exceeded") {
    return {
      problem:
        "stop_reason model_context_window_exceeded: the conversation no longer fits the " +
        "model's context window; shorten the transcript or start a fresh instance",
    };
  }
  if (!isStopReason(stop)) return { problem: `stop_reason ${JSON.stringify(stop)}` };
  return { content, stopReason: stop, usage: mapUsage(message.usage), model: message.model };
}

function isStopReason(value: unknown): value is StopReason {
  return typeof value === "string" && (STOP_REASONS as readonly string[]).includes(value);
}
