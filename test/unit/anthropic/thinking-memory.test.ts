import type { ContentBlock } from "@anthropic-ai/sdk/resources/messages/messages.js";
import { describe, expect, it } from "vitest";
import { buildMessageParams } from "../../../src/adapters/anthropic/build-request.js";
import { createThinkingMemory } from "../../../src/adapters/anthropic/thinking-memory.js";
import type { Message } from "../../../src/ports/model.js";
import { baseRequest } from "./api-fixtures.js";

const thinking = { type: "thinking", thinking: "", signature: "sig==" } as ContentBlock;
const toolUse = (id: string) =>
  ({
    type: "tool_use",
    id,
    name: "read_file",
    input: { path: id },
    caller: { type: "direct" },
  }) as unknown as ContentBlock;

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const result = (id: string): Message => ({
  role: "user",
  content: [{ type: "tool_result", tool_use_id: id, content: "ok" }],
});
const call = (id: string, text?: string): Message => ({
  role: "assistant",
  content: [
    ...(text === undefined ? [] : [{ type: "text" as const, text }]),
    { type: "tool_use", id, name: "read_file", input: { path: id } },
  ],
});

function assistantBlocks(messages: Message[], memory = createThinkingMemory(), instance = "a@t") {
  const params = buildMessageParams(baseRequest({ messages }), memory.restorer(instance, messages));
  return params.messages.filter((m) => m.role === "assistant").map((m) => m.content);
}

describe("thinking memory", () => {
  it("keeps only responses that both think and call tools", () => {
    const memory = createThinkingMemory();
    memory.remember("a@t", [toolUse("t1")]);
    memory.remember("a@t", [
      thinking,
      { type: "text", text: "done", citations: null } as ContentBlock,
    ]);
    expect(memory.size("a@t")).toBe(0);
    memory.remember("a@t", [thinking, toolUse("t2")]);
    expect(memory.size("a@t")).toBe(1);
    expect(memory.size("b@t")).toBe(0);
  });

  it("restores the thinking of every call in the current cycle, in its original place", () => {
    const memory = createThinkingMemory();
    memory.remember("a@t", [thinking, toolUse("t1")]);
    memory.remember("a@t", [thinking, toolUse("t2")]);
    const messages = [user("go"), call("t1"), result("t1"), call("t2"), result("t2")];
    expect(assistantBlocks(messages, memory)).toEqual([
      [thinking, { type: "tool_use", id: "t1", name: "read_file", input: { path: "t1" } }],
      [thinking, { type: "tool_use", id: "t2", name: "read_file", input: { path: "t2" } }],
    ]);
  });

  it("forgets a cycle once a new user message starts the next one", () => {
    const memory = createThinkingMemory();
    memory.remember("a@t", [thinking, toolUse("t1")]);
    const messages = [user("go"), call("t1"), result("t1"), call("t1-done"), user("next")];
    // t1-done was never remembered; t1 lies before the new cycle.
    expect(assistantBlocks(messages, memory)[0]).toEqual([
      { type: "tool_use", id: "t1", name: "read_file", input: { path: "t1" } },
    ]);
    expect(memory.size("a@t")).toBe(0);
  });

  it("sends the message as given when it no longer lines up with the remembered response", () => {
    const memory = createThinkingMemory();
    memory.remember("a@t", [thinking, toolUse("t1")]);
    const edited = [user("go"), call("t1", "an added text block"), result("t1")];
    expect(assistantBlocks(edited, memory)).toEqual([
      [
        { type: "text", text: "an added text block" },
        { type: "tool_use", id: "t1", name: "read_file", input: { path: "t1" } },
      ],
    ]);
  });

  it("keeps instances apart", () => {
    const memory = createThinkingMemory();
    memory.remember("a@t", [thinking, toolUse("t1")]);
    const messages = [user("go"), call("t1"), result("t1")];
    expect(assistantBlocks(messages, memory, "b@t")[0]).toEqual([
      { type: "tool_use", id: "t1", name: "read_file", input: { path: "t1" } },
    ]);
    expect(memory.size("a@t")).toBe(1);
  });
});
