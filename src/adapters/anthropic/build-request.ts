// Maps a port ModelRequest onto the Messages API body, one block for one block, with the
// cache breakpoints in place. Pure: the same request always gives the same bytes (fixed key
// order, tool inputs and schemas in canonical key order), so a request rebuilt from a
// transcript after a restart is byte for byte the request built in memory.

import type {
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { AssistantBlock, Message, ModelRequest, UserBlock } from "../../ports/model.js";
import { messageBreakpoints } from "./cache-breakpoints.js";
import { canonicalValue } from "./canonical-value.js";

const EPHEMERAL = { type: "ephemeral" } as const;

export function buildMessageParams(request: ModelRequest): MessageCreateParamsNonStreaming {
  const marked = new Set(messageBreakpoints(request.messages));
  const messages = request.messages.map((message, index): MessageParam => {
    let content = mapContent(message);
    if (marked.has(index)) content = markLast(content);
    return { role: message.role, content };
  });

  const tools = request.tools.map((tool, index): Tool => {
    const mapped: Tool = {
      name: tool.name,
      description: tool.description,
      input_schema: canonicalValue(tool.input_schema) as Tool.InputSchema,
    };
    if (index === request.tools.length - 1) mapped.cache_control = EPHEMERAL;
    return mapped;
  });
  // An empty system text block is a 400; no system prompt means no block.
  const system: TextBlockParam[] =
    request.system.length > 0
      ? [{ type: "text", text: request.system, cache_control: EPHEMERAL }]
      : [];

  // Keys in the API's cache-prefix order (tools, system, messages), so the byte prefix of
  // the body is the cached prefix: what each request repeats of the previous one shows on
  // the wire, and a test can compare it.
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    ...(tools.length > 0 ? { tools } : {}),
    ...(system.length > 0 ? { system } : {}),
    messages,
  };
}

function mapContent(message: Message): ContentBlockParam[] {
  return message.role === "user"
    ? message.content.map(mapUserBlock)
    : message.content.map(mapAssistantBlock);
}

function mapUserBlock(block: UserBlock): ContentBlockParam {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_result": {
      const mapped: ContentBlockParam = {
        type: "tool_result",
        tool_use_id: block.tool_use_id,
        content: block.content,
      };
      if (block.is_error !== undefined) mapped.is_error = block.is_error;
      return mapped;
    }
    default:
      return assertNever(block);
  }
}

function mapAssistantBlock(block: AssistantBlock): ContentBlockParam {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_use":
      return {
        type: "tool_use",
        id: block.id,
        name: block.name,
        input: canonicalValue(block.input ?? {}),
      };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: block.data };
    default:
      return assertNever(block);
  }
}

function markLast(content: ContentBlockParam[]): ContentBlockParam[] {
  const last = content.length - 1;
  return content.map((block, index) => {
    if (index !== last) return block;
    if (block.type === "thinking" || block.type === "redacted_thinking") return block;
    return { ...block, cache_control: EPHEMERAL };
  });
}

function assertNever(value: never): never {
  throw new Error(`cfa/anthropic: unhandled content block ${JSON.stringify(value)}`);
}
