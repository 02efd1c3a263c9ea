// A tool_result block; `is_error` only when set, so results stay byte-stable.

import type { ToolResultBlock } from "../../ports/model.js";

export function toolResultBlock(
  toolUseId: string,
  content: string,
  isError: boolean,
): ToolResultBlock {
  // The API rejects an empty text; an empty answer is still an answer.
  const text = content === "" ? "(empty)" : content;
  return isError
    ? { type: "tool_result", tool_use_id: toolUseId, content: text, is_error: true }
    : { type: "tool_result", tool_use_id: toolUseId, content: text };
}
