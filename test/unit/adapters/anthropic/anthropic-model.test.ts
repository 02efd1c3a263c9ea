import nock from "nock";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAnthropicModel } from "../../../../src/adapters/anthropic/anthropic-model.js";
import { MAX_NONSTREAMING_TOKENS } from "../../../../src/adapters/anthropic/messages-model.js";
import { ModelError } from "../../../../src/adapters/anthropic/model-error.js";
import { costOf } from "../../../../src/adapters/anthropic/prices.js";
import { sumUsage } from "../../../../src/agents/transcript/sum-usage.js";
import type { Logger } from "../../../../src/ports/logger.js";
import {
  ModelUnavailableError,
  type Message,
  type ModelResponse,
  type UserBlock,
} from "../../../../src/ports/model.js";
import {
  API_KEY,
  apiError,
  apiMessage,
  apiReplies,
  apiScope,
  baseRequest,
  useApiMocks,
  markerPaths,
  nextRound,
  toolResult,
} from "../../../support/anthropic/api-fixtures.js";
import { sseOf } from "../../../support/fake-messages-api/server.js";
import { rejectionOf } from "../../../support/rejection-of.js";

useApiMocks();
afterEach(() => vi.restoreAllMocks());

/** A clock that the injected sleep moves forward: minutes of backoff take no time. */
function fakeTime(start = Date.parse("2026-11-20T10:00:00Z")) {
  let at = start;
  const waits: number[] = [];
  return {
    waits,
    now: () => at,
    sleep: (ms: number) => {
      waits.push(ms);
      at += ms;
      return Promise.resolve();
    },
  };
}

const model = (
  options: { logger?: Logger; patienceMs?: number; time?: ReturnType<typeof fakeTime> } = {},
) => {
  const time = options.time ?? fakeTime();
  return createAnthropicModel({
    apiKey: API_KEY,
    now: time.now,
    sleep: time.sleep,
    random: () => 0,
    ...(options.patienceMs !== undefined ? { patienceMs: options.patienceMs } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
};

function expectNoKey(error: Error): void {
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

/**
 * The model answers with `reply`; then a new model instance (a later run, rebuilt from the
 * transcript) sends the next round with `answer`. The first response and that round's body.
 */
async function answeredThenResent(
  reply: Record<string, unknown>,
  answer: UserBlock,
): Promise<{ first: ModelResponse; resent: string }> {
  const { bodies } = apiReplies(reply, apiMessage([{ type: "text", text: "ok" }], "end_turn"));
  const first = await model().complete(baseRequest());
  await model().complete(
    baseRequest({ messages: nextRound(baseRequest().messages, first, answer) }),
  );
  return { first, resent: bodies[1]! };
}

const overloaded = apiError("overloaded_error", "Overloaded");

describe("the Anthropic model adapter", () => {
  it("maps a tool-use round trip one-to-one: tool_use out, tool_result back, final text", async () => {
    const { bodies } = apiReplies(
      apiMessage(
        [
          { type: "text", text: "Reading the issue first." },
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "ISSUE.md" } },
        ],
        "tool_use",
      ),
      apiMessage([{ type: "text", text: "INTENT.md drafted." }], "end_turn"),
    );

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
      id: expect.stringMatching(/^msg_/),
    });

    const messages = nextRound(request.messages, first, {
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: "# Add dark mode",
      is_error: false,
    });
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
              text: "Draft INTENT.md for issue #7.",
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
    const toolUse = (id: string) =>
      apiMessage([{ type: "tool_use", id, name: "read_file", input: { path: id } }], "tool_use");
    const { bodies } = apiReplies(
      toolUse("t1"),
      toolUse("t2"),
      apiMessage([{ type: "text", text: "done" }], "end_turn"),
    );

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
    apiReplies(
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
        messages: nextRound(baseRequest().messages, first, toolResult("t1", "a")),
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

  it("waits out a 429 for as long as the server's retry-after says, then succeeds", async () => {
    const { scope, bodies } = apiScope();
    scope
      .post("/v1/messages")
      .reply(429, apiError("rate_limit_error", "slow down"), { "retry-after": "30" })
      .post("/v1/messages")
      .reply(429, apiError("rate_limit_error", "slow"), { "retry-after-ms": "1500" })
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn"));

    const time = fakeTime();
    const response = await model({ time }).complete(baseRequest());
    expect(response.content).toEqual([{ type: "text", text: "ok" }]);
    expect(time.waits).toEqual([30_000, 1_500]);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies).size).toBe(1);
  });

  it("retries 529, 500, 408, 409 and a dropped connection with growing waits, longer than the SDK's own cycle", async () => {
    const { scope, bodies } = apiScope();
    scope
      .post("/v1/messages")
      .times(3)
      .reply(529, overloaded)
      .post("/v1/messages")
      .reply(500, apiError("api_error", "oops"))
      .post("/v1/messages")
      .reply(408, apiError("timeout_error", "late"))
      .post("/v1/messages")
      .reply(409, apiError("api_error", "conflict"))
      .post("/v1/messages")
      .replyWithError("socket hang up")
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn"));

    const time = fakeTime();
    await expect(model({ time }).complete(baseRequest())).resolves.toMatchObject({
      stopReason: "end_turn",
    });
    expect(bodies).toHaveLength(8);
    // Exponential from 2 s, capped at 60 s (random() = 0: no jitter taken off).
    expect(time.waits).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    // The SDK gives up after about 7 s; this rode out three minutes.
    expect(time.waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(180_000);
  });

  it("throws ModelUnavailableError once the outage outlasts its patience, saying since when and how often it tried", async () => {
    const { scope, bodies } = apiScope();
    scope.post("/v1/messages").times(6).reply(529, overloaded);
    const time = fakeTime();
    const started = new Date(time.now()).toISOString();
    // 2 + 4 + 8 + 16 + 32 = 62 s of waiting fit in 100 s; the next 60 s would not.
    const error = await rejectionOf(
      model({ time, patienceMs: 100_000 }).complete(baseRequest()),
      ModelUnavailableError,
    );
    expect(bodies).toHaveLength(6);
    expect(error.name).toBe("ModelUnavailableError");
    expect(error.fields).toEqual({ since: started, attempts: 6, last: "529 overloaded_error" });
    expect(error.message).toMatch(
      /^the Anthropic API stayed unavailable for about 1 min over 6 attempts/,
    );
    expectNoKey(error);
  });

  it("gives up at once when the server asks for a wait longer than its patience", async () => {
    const { scope, bodies } = apiScope();
    scope.post("/v1/messages").reply(429, overloaded, { "retry-after": "3600" });
    const time = fakeTime();
    await rejectionOf(
      model({ time, patienceMs: 600_000 }).complete(baseRequest()),
      ModelUnavailableError,
    );
    expect(bodies).toHaveLength(1);
    expect(time.waits).toEqual([]);
  });

  it("obeys x-should-retry: false on a 503, and x-should-retry: true on a 400", async () => {
    const { scope, bodies } = apiScope();
    scope
      .post("/v1/messages")
      .reply(400, apiError("api_error", "flaky"), { "x-should-retry": "true" })
      .post("/v1/messages")
      .reply(503, apiError("api_error", "no"), { "x-should-retry": "false" });
    const error = await rejectionOf(model().complete(baseRequest()), ModelError);
    expect(bodies).toHaveLength(2);
    expect(error.status).toBe(503);
  });

  it("does not retry a 400: one request, a ModelError with status 400 and no key anywhere", async () => {
    const { scope, bodies } = apiScope();
    scope.post("/v1/messages").reply(
      400,
      apiError(
        "invalid_request_error",
        // An upstream that echoes the credential must not leak it through us.
        `messages.0: text content blocks must be non-empty (key ${API_KEY})`,
      ),
      { "request-id": "req_011ABC" },
    );

    const error = await rejectionOf(model().complete(baseRequest()), ModelError);
    expect(bodies).toHaveLength(1);
    expect(error.name).toBe("ModelError");
    expect(error.kind).toBe("api");
    expect(error.status).toBe(400);
    expect(error.requestId).toBe("req_011ABC");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^cfa\/model: claude-sonnet-5-5 request for lead@job failed with 400 invalid_request_error: messages\.0: text content blocks must be non-empty/,
    );
    expect(error.message).toContain("(request req_011ABC)");
    expect(error.message).toContain("not retried");
    expectNoKey(error);
  });

  it("says what to do about a 401 and never shows the key", async () => {
    const { scope, bodies } = apiScope();
    scope.post("/v1/messages").reply(401, apiError("authentication_error", "invalid x-api-key"));
    // Credentials are configuration, not failure: at once, no retry, a live stop.
    const error = await rejectionOf(model().complete(baseRequest()), ModelUnavailableError);
    expect(bodies).toHaveLength(1);
    expect(error.fields.reason).toBe("credentials");
    expect(error.fields.attempts).toBe(1);
    expect(error.fields.last).toContain("ANTHROPIC_API_KEY");
    expectNoKey(error);
  });

  it("keeps the key out of a connection failure that outlasts its patience", async () => {
    const { scope } = apiScope();
    scope.post("/v1/messages").times(2).replyWithError(`socket hang up near ${API_KEY}`);
    const error = await rejectionOf(
      model({ patienceMs: 3_000 }).complete(baseRequest()),
      ModelUnavailableError,
    );
    expect(error.fields.attempts).toBe(2);
    expect(error.fields.last).toContain("Connection error");
    expectNoKey(error);
  });

  it("reports the caller's abort as kind aborted, before any request", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(
      model().complete(baseRequest(), { signal: controller.signal }),
      ModelError,
    );
    expect(error.kind).toBe("aborted");
  });

  it("keeps thinking blocks in the response and sends them back verbatim, even from a new process", async () => {
    const thinking = { type: "thinking", thinking: "", signature: "sig-abc==" };
    const toolUse = {
      type: "tool_use",
      id: "t1",
      name: "ask_question",
      input: { kind: "question" },
    };
    // The answer arrives in a later worker run: a new model instance, built from the
    // transcript, continues the tool-use cycle and must send the thinking back in place.
    const { first, resent } = await answeredThenResent(
      apiMessage([thinking, toolUse], "tool_use"),
      toolResult("t1", "yes"),
    );
    expect(first.content).toEqual([thinking, toolUse]);

    const assistantOf = (body: string) =>
      (JSON.parse(body) as { messages: { role: string; content: unknown[] }[] }).messages[1];
    expect(assistantOf(resent)).toEqual({ role: "assistant", content: [thinking, toolUse] });
  });

  it("keeps a block of a type the port does not model, and sends it back exactly as it came", async () => {
    const server = {
      type: "server_tool_use",
      id: "srv_1",
      name: "web_search",
      input: { query: "x" },
    };
    const { first, resent } = await answeredThenResent(
      apiMessage([server, { type: "text", text: "found it" }], "end_turn"),
      { type: "text", text: "go on" },
    );
    expect(first.content).toEqual([
      { type: "opaque", block: server },
      { type: "text", text: "found it" },
    ]);
    expect(resent).toContain(
      `{"role":"assistant","content":[${JSON.stringify(server)},{"type":"text","text":"found it"}]}`,
    );
  });

  it("sends tool inputs back with their keys in the order the model wrote them, extra block fields included", async () => {
    const { scope, bodies } = apiScope();
    const rawReply =
      '{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5-5",' +
      '"content":[{"type":"text","text":"Editing.","citations":null},' +
      '{"type":"tool_use","id":"t1","name":"edit_file","input":{"path":"a.js","old_text":"x","new_text":"y","z":{"b":1,"a":2}},"caller":{"type":"direct"}}],' +
      '"stop_reason":"tool_use","stop_sequence":null,' +
      '"usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}';
    scope
      .post("/v1/messages")
      .reply(200, rawReply, { "content-type": "application/json" })
      .post("/v1/messages")
      .reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn"));
    const first = await model().complete(baseRequest());
    await model().complete(
      baseRequest({
        messages: nextRound(baseRequest().messages, first, toolResult("t1", "done")),
      }),
    );
    const sent = JSON.stringify((JSON.parse(rawReply) as { content: unknown }).content);
    expect(bodies[1]).toContain(`{"role":"assistant","content":${sent}}`);
  });

  it("turns model_context_window_exceeded into a ModelError that says what to do", async () => {
    apiReplies(apiMessage([{ type: "text", text: "partial" }], "model_context_window_exceeded"));
    const error = await rejectionOf(model().complete(baseRequest()), ModelError);
    expect(error.kind).toBe("response");
    expect(error.message).toContain("shorten the transcript");
  });

  it("refuses to start without an API key", () => {
    expect(() => createAnthropicModel({ apiKey: " " })).toThrow(
      /no API key: set ANTHROPIC_API_KEY/,
    );
  });

  it("sends every request to the base URL it is given (ANTHROPIC_BASE_URL, the SDK's convention)", async () => {
    const gateway = nock("https://llm-gateway.example.com");
    gateway
      .post("/anthropic/v1/messages")
      // SDK 1.12 sends the key as a bearer token (src/client.ts apiKeyAuth).
      .matchHeader("authorization", `Bearer ${API_KEY}`)
      .reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn"));
    const time = fakeTime();
    const m = createAnthropicModel({
      apiKey: API_KEY,
      baseURL: "https://llm-gateway.example.com/anthropic",
      sleep: time.sleep,
      now: time.now,
      patienceMs: 1,
    });
    await expect(m.complete(baseRequest())).resolves.toMatchObject({ stopReason: "end_turn" });
  });

  it("authenticates with a bearer token when a gateway wants one (ANTHROPIC_AUTH_TOKEN)", async () => {
    nock("https://api.anthropic.com")
      .post("/v1/messages")
      .matchHeader("authorization", "Bearer gw-token-0123")
      .reply(200, apiMessage([{ type: "text", text: "ok" }], "end_turn"));
    const m = createAnthropicModel({ authToken: "gw-token-0123", patienceMs: 1 });
    await expect(m.complete(baseRequest())).resolves.toMatchObject({ stopReason: "end_turn" });
  });

  it("streams when the output budget is above what the SDK sends in one JSON answer, and gathers the final message", async () => {
    // The events as the API streams them, from the same encoder the fake Messages API uses.
    const sse = sseOf(
      apiMessage(
        [
          { type: "thinking", thinking: "Plan.", signature: "sig==" },
          { type: "tool_use", id: "t1", name: "write_file", input: { path: "a", content: "x" } },
        ],
        "tool_use",
        { input_tokens: 12, output_tokens: 40 },
      ),
    );
    const { scope, bodies } = apiScope();
    scope.post("/v1/messages").reply(200, sse, { "content-type": "text/event-stream" });
    const response = await model().complete(
      baseRequest({ maxTokens: MAX_NONSTREAMING_TOKENS + 1 }),
    );
    expect((JSON.parse(bodies[0]!) as { stream?: boolean }).stream).toBe(true);
    expect(response.content).toEqual([
      { type: "thinking", thinking: "Plan.", signature: "sig==" },
      { type: "tool_use", id: "t1", name: "write_file", input: { path: "a", content: "x" } },
    ]);
    expect(response.stopReason).toBe("tool_use");
    expect(response.usage.outputTokens).toBe(40);
  });

  it("does not stream at or below that budget", async () => {
    const { bodies } = apiReplies(apiMessage([{ type: "text", text: "ok" }], "end_turn"));
    await model().complete(baseRequest({ maxTokens: MAX_NONSTREAMING_TOKENS }));
    expect(JSON.parse(bodies[0]!)).not.toHaveProperty("stream", true);
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
