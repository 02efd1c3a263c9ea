// A tool_result block; `is_error` only when set, so results stay byte-stable. Its text is
// redacted here, the one place every tool result is made: the model never
// holds a secret of this process, so no transcript, commit or comment it leads to does.
// Known secrets only: a token shape in a file (a fixture, `Bearer ${token}` in code) is the
// file's content, and cut out it would corrupt the next edit (Redactor.redactKnown).

import type { ToolResultBlock } from "../../ports/model.js";
import { redactKnown } from "../../secrets/index.js";

export function toolResultBlock(
  toolUseId: string,
  content: string,
  isError: boolean,
): ToolResultBlock {
  // The API rejects an empty text; an empty answer is still an answer.
  const text = content === "" ? "(empty)" : redactKnown(content, "a tool result");
  return isError
    ? { type: "tool_result", tool_use_id: toolUseId, content: text, is_error: true }
    : { type: "tool_result", tool_use_id: toolUseId, content: text };
}
