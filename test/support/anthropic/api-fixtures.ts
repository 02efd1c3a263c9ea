// Shared pieces of the Anthropic adapter tests: API response bodies and a nock scope that
// keeps every request body exactly as sent (nock hands reply callbacks a parsed body).

import nock from "nock";
import { afterEach, beforeAll, expect } from "vitest";
import type { Message, ModelRequest, ModelResponse, UserBlock } from "../../../src/ports/model.js";

export const API = "https://api.anthropic.com";
export const API_KEY = "sk-ant-api03-test-KEY-0123456789abcdef";

export interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number | null;
  cache_creation_input_tokens: number | null;
}

export function apiMessage(
  content: unknown[],
  stop_reason: string,
  usage: Partial<ApiUsage> = {},
  model = "claude-sonnet-5-5",
): Record<string, unknown> {
  return {
    id: `msg_${Math.abs(JSON.stringify(content).length)}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason,
    stop_sequence: null,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: null,
      cache_creation_input_tokens: null,
      ...usage,
    },
  };
}

/** An error body as the API sends it with a non-2xx status. */
export function apiError(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

/** A nock scope on the API whose `bodies` collects each request body as sent, in order. */
export function apiScope(): { scope: nock.Scope; bodies: string[] } {
  const bodies: string[] = [];
  const scope = nock(API);
  scope.on("request", (_req: unknown, _interceptor: unknown, body: string) => bodies.push(body));
  return { scope, bodies };
}

/** apiScope() answering its requests in turn with these messages, each a 200. */
export function apiReplies(...messages: Record<string, unknown>[]): {
  scope: nock.Scope;
  bodies: string[];
} {
  const { scope, bodies } = apiScope();
  for (const message of messages) scope.post("/v1/messages").reply(200, message);
  return { scope, bodies };
}

/** The messages of the next round of a conversation: those sent, the model's reply, the user's answer. */
export function nextRound(
  sent: Message[],
  reply: ModelResponse,
  ...answer: UserBlock[]
): Message[] {
  return [
    ...sent,
    { role: "assistant", content: reply.content },
    { role: "user", content: answer },
  ];
}

/** The user's answer to a tool call. */
export function toolResult(id: string, content: string): UserBlock {
  return { type: "tool_result", tool_use_id: id, content };
}

export function baseRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    instance: "lead@job",
    model: "claude-sonnet-5-5",
    system: "You are the intent lead.",
    tools: [
      {
        name: "read_file",
        description: "Read a file in the workspace",
        input_schema: {
          type: "object",
          properties: { path: { type: "string" } },
          required: ["path"],
        },
      },
      {
        name: "finish",
        description: "End the state with an outcome",
        input_schema: { type: "object", properties: { outcome: { type: "string" } } },
      },
    ],
    messages: [
      { role: "user", content: [{ type: "text", text: "Draft INTENT.md for issue #7." }] },
    ],
    maxTokens: 4096,
    ...overrides,
  };
}

/** Where `"cache_control"` markers sit in a parsed body, as readable paths. */
export function markerPaths(body: string): string[] {
  const parsed = JSON.parse(body) as {
    tools?: { cache_control?: unknown }[];
    system?: { cache_control?: unknown }[];
    messages: { content: { cache_control?: unknown }[] }[];
  };
  const out: string[] = [];
  parsed.tools?.forEach((tool, i) => tool.cache_control && out.push(`tools[${i}]`));
  parsed.system?.forEach((block, i) => block.cache_control && out.push(`system[${i}]`));
  parsed.messages.forEach((message, m) =>
    message.content.forEach(
      (block, b) => block.cache_control && out.push(`messages[${m}].content[${b}]`),
    ),
  );
  return out;
}

/** For the file's tests: no real connection, and each test ends with every mocked call made. */
export function useApiMocks(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });
}
