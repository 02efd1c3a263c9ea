// Maps a port ModelRequest onto the Messages API body, with the cache breakpoints in place.
// Pure: the same request always gives the same bytes, so a request rebuilt from a transcript
// after a restart is byte for byte the request built in memory.
//
// Earlier assistant turns go back EXACTLY as the API returned them: each block is
// the object the response carried, copied, never re-serialised in another key order — with
// interleaved thinking the API requires it, and any change moves the cache prefix
// (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks).
// Only our own parts are normalised: the tools' input schemas (canonical key order, so a
// role's tool list is the same bytes in every process) and the user messages we build.

import type {
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolUnion,
} from "@anthropic-ai/sdk/resources/messages/messages.js";
import {
  isClientToolSpec,
  type AssistantBlock,
  type ModelRequest,
  type ToolSpec,
  type UserBlock,
} from "../../ports/model.js";
import { planBreakpoints } from "./cache-breakpoints.js";
import { canonicalValue } from "./canonical-value.js";

export type MessageBody = Omit<MessageCreateParamsBase, "stream">;

export function buildMessageParams(request: ModelRequest): MessageBody {
  // https://platform.claude.com/docs/en/build-with-claude/prompt-caching: `ttl` "5m" (the
  // default) or "1h", and 1-hour entries must come before 5-minute ones. The markers on what
  // the job's instances share (tools, instructions, the role's block) come first and take
  // `sharedCacheLifetime`, never shorter than the request's own.
  const marker = markerOf(request.cacheLifetime);
  const shared =
    request.cacheLifetime === "1h" ? marker : markerOf(request.sharedCacheLifetime ?? "5m");
  const plan = planBreakpoints(request);
  const marked = new Set(plan.messages);
  const messages = request.messages.map((message, index): MessageParam => {
    const content =
      message.role === "user"
        ? message.content.map(mapUserBlock)
        : message.content.map(assistantBlockAsReceived);
    return {
      role: message.role,
      // Markers go on user messages only (cache-breakpoints.ts picks no other): an assistant
      // turn is never touched.
      content: marked.has(index) && message.role === "user" ? markLast(content, marker) : content,
    };
  });

  const tools = request.tools.map((tool, index): ToolUnion => {
    const mapped = toolParam(tool);
    if (plan.tools.includes(index)) mapped.cache_control = shared;
    return mapped;
  });
  // An empty system text block is a 400; no system prompt means no block. The instructions
  // come first: the same bytes for every role, so the prefix up to them is shared.
  const system: TextBlockParam[] = [];
  if (request.instructions !== undefined && request.instructions.length > 0) {
    system.push({
      type: "text",
      text: request.instructions,
      ...(plan.instructions ? { cache_control: shared } : {}),
    });
  }
  if (request.rolePrompt !== undefined && request.rolePrompt.length > 0) {
    system.push({
      type: "text",
      text: request.rolePrompt,
      // The last system block carries the request's own lifetime.
      ...(plan.role ? { cache_control: request.system.length > 0 ? shared : marker } : {}),
    });
  }
  if (request.system.length > 0) {
    system.push({ type: "text", text: request.system, cache_control: marker });
  }

  // Keys in the API's cache-prefix order (tools, system, messages), so the byte prefix of
  // the body is the cached prefix: what each request repeats of the previous one shows on
  // the wire, and a test can compare it.
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    ...(tools.length > 0 ? { tools } : {}),
    ...(system.length > 0 ? { system } : {}),
    messages,
    // https://platform.claude.com/docs/en/build-with-claude/effort: `output_config.effort`.
    ...(request.effort !== undefined ? { output_config: { effort: request.effort } } : {}),
  };
}

/**
 * Our tools with their canonical schema; an Anthropic-defined one as its type and name only
 * (the SDK's ToolBash20250124 and ToolTextEditor20250728), its schema being the model's own.
 * The same body goes to Bedrock and Vertex AI, which take these types too (Bedrock's
 * "Anthropic defined tools",
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-tool-use.html;
 * Vertex's API "supports all the same options" as the Messages API,
 * https://platform.claude.com/docs/en/build-with-claude/claude-on-vertex-ai).
 */
function toolParam(tool: ToolSpec): ToolUnion {
  if (isClientToolSpec(tool)) return { ...tool };
  const mapped: Tool = {
    name: tool.name,
    description: tool.description,
    input_schema: canonicalValue(tool.input_schema) as Tool.InputSchema,
  };
  return mapped;
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

/** The block the API sent, copied as it is (an opaque block is unwrapped to the API's object). */
function assistantBlockAsReceived(block: AssistantBlock): ContentBlockParam {
  const raw = block.type === "opaque" ? block.block : block;
  return JSON.parse(JSON.stringify(raw)) as ContentBlockParam;
}

function markerOf(lifetime: ModelRequest["cacheLifetime"]) {
  return lifetime === "1h"
    ? ({ type: "ephemeral", ttl: "1h" } as const)
    : ({ type: "ephemeral" } as const);
}

function markLast(
  content: ContentBlockParam[],
  marker: { type: "ephemeral"; ttl?: "1h" },
): ContentBlockParam[] {
  const last = content.length - 1;
  return content.map((block, index) => {
    if (index !== last) return block;
    if (block.type === "thinking" || block.type === "redacted_thinking") return block;
    return { ...block, cache_control: marker } as ContentBlockParam;
  });
}

function assertNever(value: never): never {
  throw new Error(`cfa/anthropic: unhandled content block ${JSON.stringify(value)}`);
}
