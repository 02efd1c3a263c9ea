// The tool calls a transcript leaves unanswered: those of its last message when that is an
// assistant message. A turn ends that way only after a lone ask_question or finish that the
// host accepted, or a response the tool-call cap kept from running (run-turn.ts).

import type { Message, ToolUseBlock } from "../../ports/model.js";

export function pendingToolUses(transcript: readonly Message[]): ToolUseBlock[] {
  const last = transcript.at(-1);
  if (last?.role !== "assistant") return [];
  return last.content.filter((block): block is ToolUseBlock => block.type === "tool_use");
}

/**
 * The ask_question call waiting for its answer, if any. Its `id` is what
 * `IncomingMessage.answers` must carry for the answer to become this call's result.
 */
export function pendingAsk(transcript: readonly Message[]): ToolUseBlock | undefined {
  const pending = pendingToolUses(transcript);
  const only = pending.length === 1 ? pending[0] : undefined;
  return only?.name === "ask_question" ? only : undefined;
}
