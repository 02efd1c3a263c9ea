import nock from "nock";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAnthropicModel } from "../../../src/adapters/anthropic/anthropic-model.js";
import { ModelError } from "../../../src/adapters/anthropic/model-error.js";
import { costOf } from "../../../src/adapters/anthropic/prices.js";
import { sumUsage } from "../../../src/agents/transcript/sum-usage.js";
import type { Logger } from "../../../src/ports/logger.js";
import type { Message } from "../../../src/ports/model.js";
import { API_KEY, apiMessage, apiScope, baseRequest, markerPaths } from "./api-fixtures.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
  vi.restoreAllMocks();
});

const model = (options: { maxRetries?: number; logger?: Logger } = {}) =>
  createAnthropicModel({ apiKey: API_KEY, maxRetries: options.maxRetries ?? 2, ...options });

async function failureOf(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

function expectNoKey(error: ModelError): void {
  const cause = error.cause as Error | undefined;
  for (const text of [
    error.message,
    error.stack ?? "",
    String(cause),
    cause?.stack ?? "",
    JSON.stringify(error),
  ]) {
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain("sk-ant-");
  }
}

describe("the Anthropic model adapter", () => {
  it("maps a tool-use round trip one-to-one: tool_use out, tool_result back, final text", async () => {
    const { scope, bodies } = apiScope();
    scope
      .post("/v1/messages")
      .reply(
        200,
        apiMessage(
          [
            { type: "text", text: "Reading the issue first." },
            { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "ISSUE.md" } },
          ],
          "tool_use",
        ),
      )
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "INTENT.md drafted." }], "end_turn"));

    const m = model();
    const request = baseRequest();
    const first = await m.complete(request);
    expect(first).toEqual({
      content: [
        { type: "text", text: "Reading the issue first." },
        { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "ISSUE.md" } },
      ],
      stopReason: "tool_use",
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      model: "claude-sonnet-5-5",
    });

    const messages: Message[] = [
      ...request.messages,
      { role: "assistant", content: first.content },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: "# Add dark mode",
            is_error: false,
          },
        ],
      },
    ];
    const second = await m.complete({ ...request, messages });
    expect(second.content).toEqual([{ type: "text", text: "INTENT.md drafted." }]);
    expect(second.stopReason).toBe("end_turn");

    expect(bodies).toHaveLength(2);
    expect(JSON.parse(bodies[1]!)).toEqual({
      model: "claude-sonnet-5-5",
      max_tokens: 4096,
      messages: [
        {
          role: "user",
          content: [
            {
              type: "text",
              text: "Draft INTENT.md for issue 7.",
              cache_control: { type: "ephemeral" },
            },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Reading the issue first." },
            { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "ISSUE.md" } },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_1",
              content: "# Add dark mode",
              is_error: false,
              cache_control: { type: "ephemeral" },
            },
          ],
        },
      ],
      system: [
        { type: "text", text: "You are the intent lead.", cache_control: { type: "ephemeral" } },
      ],
      tools: [
        {
          name: "read_file",
          description: "Read a file in the workspace",
          input_schema: {
            properties: { path: { type: "string" } },
            required: ["path"],
            type: "object",
          },
        },
        {
          name: "finish",
          description: "End the state with an outcome",
          input_schema: { properties: { outcome: { type: "string" } }, type: "object" },
          cache_control: { type: "ephemeral" },
        },
      ],
    });
  });

  it("puts cache_control on the last tool, the system block, the last message and the message before the previous reply, and nowhere else", async () => {
    const { scope, bodies } = apiScope();
    const toolUse = (id: string) =>
      apiMessage([{ type: "tool_use", id, name: "read_file", input: { path: id } }], "tool_use");
    scope
      .post("/v1/messages")
      .reply(200, toolUse("t1"))
      .post("/v1/messages")
      .reply(200, toolUse("t2"))
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "done" }], "end_turn"));

    const m = model();
    const messages: Message[] = [...baseRequest().messages];
    for (let round = 0; round < 3; round++) {
      const response = await m.complete(baseRequest({ messages: [...messages] }));
      const call = response.content.find((block) => block.type === "tool_use");
      if (call === undefined) break;
      messages.push({ role: "assistant", content: response.content });
      messages.push({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: call.id, content: "text", is_error: false }],
      });
    }

    expect(bodies.map(markerPaths)).toEqual([
      ["tools[1]", "system[0]", "messages[0].content[0]"],
      ["tools[1]", "system[0]", "messages[0].content[0]", "messages[2].content[0]"],
      ["tools[1]", "system[0]", "messages[2].content[0]", "messages[4].content[0]"],
    ]);
  });

  it("maps usage, null cache counts as 0, and a turn's usage sums over its responses", async () => {
    const { scope } = apiScope();
    scope
      .post("/v1/messages")
      .reply(
        200,
        apiMessage(
          [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a" } }],
          "tool_use",
          {
            input_tokens: 1200,
            output_tokens: 80,
            cache_creation_input_tokens: 3000,
            cache_read_input_tokens: null,
          },
        ),
      )
      .post("/v1/messages")
      .reply(
        200,
        apiMessage([{ type: "text", text: "ok" }], "end_turn", {
          input_tokens: 40,
          output_tokens: 20,
          cache_creation_input_tokens: 150,
          cache_read_input_tokens: 4200,
        }),
      );

    const m = model();
    const first = await m.complete(baseRequest());
    const second = await m.complete(
      baseRequest({
        messages: [
          ...baseRequest().messages,
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a" }] },
        ],
      }),
    );
    expect(first.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 80,
      cacheReadTokens: 0,
      cacheWriteTokens: 3000,
    });
    expect(second.usage).toEqual({
      inputTokens: 40,
      outputTokens: 20,
      cacheReadTokens: 4200,
      cacheWriteTokens: 150,
    });
    expect(sumUsage([first.usage, second.usage])).toEqual({
      inputTokens: 1240,
      outputTokens: 100,
      cacheReadTokens: 4200,
      cacheWriteTokens: 3150,
    });
    // Sonnet 5.5: $2 in, $10 out, $2.50 cache write, $0.10 cache read per million tokens.
    const cost =
      costOf("claude-sonnet-5-5", first.usage) + costOf("claude-sonnet-5-5", second.usage);
    expect(cost).toBeCloseTo((1240 * 2 + 100 * 10 + 3150 * 2.5 + 4200 * 0.1) / 1e6, 12);
  });

  it("retries a 429 (the SDK's own retry) and then succeeds", async () => {
    const { scope, bodies } = apiScope();
    scope
      .post("/v1/messages")
      .reply(
        429,
        { type: "error", error: { type: "rate_limit_error", message: "slow down" } },
        { "retry-after-ms": "1" },
      )
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn"));

    const response = await model().complete(baseRequest());
    expect(response.content).toEqual([{ type: "text", text: "ok" }]);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
  });

  it("retries 529 overloaded and 500 too", async () => {
    const { scope, bodies } = apiScope();
    const fast = { "retry-after-ms": "1" };
    scope
      .post("/v1/messages")
      .reply(
        529,
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
        fast,
      )
      .post("/v1/messages")
      .reply(500, { type: "error", error: { type: "api_error", message: "oops" } }, fast)
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn"));

    await expect(model({ maxRetries: 4 }).complete(baseRequest())).resolves.toMatchObject({
      stopReason: "end_turn",
    });
    expect(bodies).toHaveLength(3);
  });

  it("does not retry a 400: one request, a ModelError with status 400 and no key anywhere", async () => {
    const { scope, bodies } = apiScope();
    scope.post("/v1/messages").reply(
      400,
      {
        type: "error",
        error: {
          type: "invalid_request_error",
          // An upstream that echoes the credential must not leak it through us.
          message: `messages.0: text content blocks must be non-empty (key ${API_KEY})`,
        },
      },
      { "request-id": "req_011ABC" },
    );

    const error = await failureOf(model({ maxRetries: 4 }).complete(baseRequest()));
    expect(bodies).toHaveLength(1);
    expect(error.name).toBe("ModelError");
    expect(error.kind).toBe("api");
    expect(error.status).toBe(400);
    expect(error.requestId).toBe("req_011ABC");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^cfa\/anthropic: claude-sonnet-5-5 request for lead@job failed with 400 invalid_request_error: messages\.0: text content blocks must be non-empty/,
    );
    expect(error.message).toContain("(request req_011ABC)");
    expect(error.message).toContain("not retried");
    expectNoKey(error);
  });

  it("says what to do about a 401 and never shows the key", async () => {
    const { scope, bodies } = apiScope();
    scope.post("/v1/messages").reply(401, {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
    });
    const error = await failureOf(model().complete(baseRequest()));
    expect(bodies).toHaveLength(1);
    expect(error.status).toBe(401);
    expect(error.message).toContain("ANTHROPIC_API_KEY");
    expectNoKey(error);
  });

  it("gives up after maxRetries on a persistent 429, retryable and key-free", async () => {
    const { scope, bodies } = apiScope();
    scope
      .post("/v1/messages")
      .times(3)
      .reply(
        429,
        { type: "error", error: { type: "rate_limit_error", message: "slow down" } },
        { "retry-after-ms": "1" },
      );
    const error = await failureOf(model({ maxRetries: 2 }).complete(baseRequest()));
    expect(bodies).toHaveLength(3);
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("after 2 retries");
    expectNoKey(error);
  });

  it("reports a connection failure as a retryable ModelError without the key", async () => {
    const { scope } = apiScope();
    scope.post("/v1/messages").replyWithError(`socket hang up near ${API_KEY}`);
    const error = await failureOf(model({ maxRetries: 0 }).complete(baseRequest()));
    expect(error.kind).toBe("connection");
    expect(error.retryable).toBe(true);
    expectNoKey(error);
  });

  it("reports the caller's abort as kind aborted, before any request", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failureOf(model().complete(baseRequest(), { signal: controller.signal }));
    expect(error.kind).toBe("aborted");
  });

  it("keeps thinking blocks in the response and sends them back verbatim, even from a new process", async () => {
    const { scope, bodies } = apiScope();
    const thinking = { type: "thinking", thinking: "", signature: "sig-abc==" };
    const toolUse = {
      type: "tool_use",
      id: "t1",
      name: "ask_question",
      input: { kind: "question" },
    };
    scope
      .post("/v1/messages")
      .reply(200, apiMessage([thinking, toolUse], "tool_use"))
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "thanks" }], "end_turn"));

    const first = await model().complete(baseRequest());
    expect(first.content).toEqual([thinking, toolUse]);
    // The answer arrives in a later worker run: a new model instance, built from the
    // transcript, continues the tool-use cycle and must send the thinking back in place.
    const cycle: Message[] = [
      ...baseRequest().messages,
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "yes" }] },
    ];
    await model().complete(baseRequest({ messages: cycle }));

    const assistantOf = (body: string) =>
      (JSON.parse(body) as { messages: { role: string; content: unknown[] }[] }).messages[1];
    expect(assistantOf(bodies[1]!)).toEqual({ role: "assistant", content: [thinking, toolUse] });
  });

  it("refuses a content block the port cannot carry instead of dropping it", async () => {
    const { scope } = apiScope();
    scope
      .post("/v1/messages")
      .reply(
        200,
        apiMessage(
          [{ type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "x" } }],
          "end_turn",
        ),
      );
    const error = await failureOf(model().complete(baseRequest()));
    expect(error.kind).toBe("response");
    expect(error.message).toContain('"server_tool_use"');
  });

  it("turns model_context_window_exceeded into a ModelError that says what to do", async () => {
    const { scope } = apiScope();
    scope
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "partial" }], "model_context_window_exceeded"));
    const error = await failureOf(model().complete(baseRequest()));
    expect(error.kind).toBe("response");
    expect(error.message).toContain("shorten the transcript");
  });

  it("refuses to start without an API key", () => {
    expect(() => createAnthropicModel({ apiKey: " " })).toThrow(
      /no API key: set ANTHROPIC_API_KEY/,
    );
  });

  it("ignores ANTHROPIC_BASE_URL: the base URL is passed in, never read from the environment", async () => {
    vi.stubEnv("ANTHROPIC_BASE_URL", "https://evil.example.com");
    try {
      const { scope } = apiScope();
      scope.post("/v1/messages").reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn"));
      await expect(model().complete(baseRequest())).resolves.toMatchObject({
        stopReason: "end_turn",
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("warns once through the logger when a deprecated model is used", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {}); // the SDK's own per-call warning
    const warn = vi.fn();
    const logger: Logger = { debug: () => {}, info: () => {}, warn, error: () => {} };
    const { scope } = apiScope();
    scope
      .post("/v1/messages")
      .times(2)
      .reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn", {}, "claude-sonnet-4-5"));
    const m = model({ logger });
    await m.complete(baseRequest({ model: "claude-sonnet-4-5" }));
    await m.complete(baseRequest({ model: "claude-sonnet-4-5" }));
    const deprecations = warn.mock.calls.filter(([message]) =>
      String(message).includes("deprecated"),
    );
    expect(deprecations).toHaveLength(1);
    expect(String(deprecations[0]?.[0])).toContain("2026-11-30");
  });
});
