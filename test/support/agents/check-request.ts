// The Messages API's shape rules, checked on every request a fake model sees: the
// conversation starts with the user, roles alternate, no message or text block is empty,
// every tool_use is answered by a tool_result in the very next user message (results
// first), and no result answers a call that is not in the message just before it.

import type { Message, ModelRequest } from "../../../src/ports/model.js";

export function requestProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  if (messages.length === 0) return ["no messages"];
  if (messages[0]?.role !== "user") problems.push("the first message is not a user message");
  if (messages.at(-1)?.role !== "user") problems.push("the last message is not a user message");
  const seenIds = new Set<string>();
  messages.forEach((message, index) => {
    const previous = messages[index - 1];
    if (previous !== undefined && previous.role === message.role) {
      problems.push(`messages ${index - 1} and ${index} are both ${message.role}`);
    }
    if (message.content.length === 0) problems.push(`message ${index} is empty`);
    for (const block of message.content) {
      if (block.type === "text" && block.text.trim() === "") {
        problems.push(`message ${index} has a blank text block`);
      }
    }
    if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type !== "tool_use") continue;
        if (seenIds.has(block.id)) problems.push(`tool_use id ${block.id} is used twice`);
        seenIds.add(block.id);
      }
      return;
    }
    const calls =
      previous?.role === "assistant"
        ? previous.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []))
        : [];
    const results = message.content.flatMap((block) =>
      block.type === "tool_result" ? [block.tool_use_id] : [],
    );
    for (const id of calls) {
      if (!results.includes(id))
        problems.push(`tool_use ${id} is not answered in message ${index}`);
    }
    for (const id of results) {
      if (!calls.includes(id)) problems.push(`message ${index} answers unknown tool_use ${id}`);
    }
    if (new Set(results).size !== results.length) {
      problems.push(`message ${index} answers a tool_use twice`);
    }
    const firstText = message.content.findIndex((block) => block.type === "text");
    const lastResult = message.content.map((block) => block.type).lastIndexOf("tool_result");
    if (firstText !== -1 && lastResult > firstText) {
      problems.push(`message ${index} has a tool_result after a text block`);
    }
  });
  return problems;
}

export function assertWellFormed(request: ModelRequest): void {
  const problems = requestProblems(request.messages);
  if (problems.length > 0) {
    throw new Error(
      `malformed request:\n- ${problems.join("\n- ")}\n${JSON.stringify(request.messages, null, 1)}`,
    );
  }
}
