// What the scripted and recording models look at in a request: its last user message, as
// text, and the tools whose results it carries.

import type { Message, ModelRequest, ToolResultBlock } from "../../ports/model.js";

type UserMessage = Extract<Message, { role: "user" }>;

export function lastUserMessage(request: ModelRequest): UserMessage | undefined {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message?.role === "user") return message;
  }
  return undefined;
}

/** The last user message's text blocks and tool result contents, joined by newlines. */
export function lastUserText(request: ModelRequest): string {
  const message = lastUserMessage(request);
  if (message === undefined) return "";
  return message.content
    .map((block) => (block.type === "text" ? block.text : block.content))
    .join("\n");
}

export function lastToolResults(request: ModelRequest): ToolResultBlock[] {
  const message = lastUserMessage(request);
  if (message === undefined) return [];
  return message.content.filter((block): block is ToolResultBlock => block.type === "tool_result");
}

/** The names of the tools whose results the last user message carries, in order. */
export function toolResultNames(request: ModelRequest): string[] {
  const names = new Map<string, string>();
  for (const message of request.messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content)
      if (block.type === "tool_use") names.set(block.id, block.name);
  }
  return lastToolResults(request).map((result) => names.get(result.tool_use_id) ?? "?");
}

/** A one-line excerpt for error messages. */
export function excerpt(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
