// The messages of a request: the instance's conversation since its last restart (context
// bounding, context-budget.ts), with adjacent same-role messages merged. The Messages API
// requires alternating roles; a transcript can end on a user message (a response with no
// content is not kept), and the next turn's opening message then joins it. Merging here,
// not in the stored transcript, keeps the transcript append-only and every request built
// from it identical, so the cached prefix holds (docs/protocol.md#persistence). Assistant messages
// are merged by concatenation only: their blocks stay exactly as received, as the API requires.

import type { Message } from "../../ports/model.js";
import { viewStart } from "./context-budget.js";

export function requestMessages(messages: readonly Message[]): Message[] {
  const merged: Message[] = [];
  for (const message of messages.slice(viewStart(messages))) {
    const last = merged.at(-1);
    if (last?.role === "user" && message.role === "user") {
      merged[merged.length - 1] = { role: "user", content: [...last.content, ...message.content] };
    } else if (last?.role === "assistant" && message.role === "assistant") {
      merged[merged.length - 1] = {
        role: "assistant",
        content: [...last.content, ...message.content],
      };
    } else {
      merged.push(message.role === "user" ? { role: "user", content: message.content } : message);
    }
  }
  return merged;
}
