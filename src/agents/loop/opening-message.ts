// The user message that starts a turn: first a result for every tool call the transcript
// left unanswered (the Messages API requires each tool_use to be answered in the very next
// user message), then the incoming message itself — unless it is the answer a pending
// ask_question was waiting for, which becomes that call's result (an ask is one
// tool call that returns an answer: docs/protocol.md#escalation).

import type { Message, UserBlock } from "../../ports/model.js";
import { redact } from "../../secrets/index.js";
import type { IncomingMessage } from "../turn-contract.js";
import { NOTES } from "./loop-notes.js";
import { pendingToolUses } from "./pending-tool-uses.js";
import { toolResultBlock } from "./tool-result-block.js";

export function openingMessage(
  transcript: readonly Message[],
  incoming: IncomingMessage,
): Message & { role: "user" } {
  const pending = pendingToolUses(transcript);
  // Only a lone ask_question or finish can have run and still be pending (run-turn.ts):
  // anything else left unanswered was kept from running by the tool-call cap.
  const lone = pending.length === 1 ? pending[0] : undefined;
  const content: UserBlock[] = [];
  let answered = false;
  for (const call of pending) {
    if (call === lone && call.name === "ask_question") {
      if (incoming.kind === "answer" && incoming.answers === call.id) {
        content.push(toolResultBlock(call.id, incoming.text, false));
        answered = true;
      } else {
        content.push(toolResultBlock(call.id, NOTES.stillOpen, false));
      }
    } else if (call === lone && call.name === "finish") {
      content.push(toolResultBlock(call.id, NOTES.outcomeRecorded, false));
    } else {
      content.push(toolResultBlock(call.id, NOTES.capped, true));
    }
  }
  if (!answered) content.push({ type: "text", text: incomingText(incoming) });
  return { role: "user", content };
}

/**
 * The text of an incoming message as the model reads it; never a blank block. Redacted: it
 * carries people's words and other agents'.
 */
export function incomingText(incoming: IncomingMessage): string {
  return incoming.text.trim() === ""
    ? `(an empty ${incoming.kind} message)`
    : redact(incoming.text, "a message to an agent");
}
