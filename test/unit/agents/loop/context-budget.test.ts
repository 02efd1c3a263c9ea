// Each instance's context stays under its model's window (past it the API refuses every turn),
// with a margin, however many tool calls it makes and however large their results. A synthetic
// worker makes 300 read_file calls of a 120 KB file, through the real adapter and SDK over
// HTTP, against a local server that counts every request's tokens pessimistically (one token
// per two bytes, where real text takes three to four) and checks each request against the
// window of the model asked for, claude-haiku-4-5 (200K tokens, max_tokens included).

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicModel } from "../../../../src/adapters/anthropic/anthropic-model.js";
import {
  byteSize,
  clip,
  ContextMeter,
  inputLimit,
  restartMessage,
  toolsSize,
  viewStart,
} from "../../../../src/agents/loop/context-budget.js";
import { requestMessages } from "../../../../src/agents/loop/request-messages.js";
import { runTurn } from "../../../../src/agents/loop/run-turn.js";
import type { Message } from "../../../../src/ports/model.js";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
} from "../../../support/fake-messages-api/server.js";
import { tempWorkspace, testRole, turnInput } from "../../../support/agents/turn-fixture.js";

const WINDOW = 200_000;

let root: string;
let cleanup: () => Promise<void>;
let server: FakeMessagesApi | undefined;
beforeEach(async () => {
  ({ root, cleanup } = await tempWorkspace());
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await cleanup();
});

describe("bounded context", () => {
  it("a worker making 300 tool calls with 120 KB results never sends a request over its window", async () => {
    // Varied text, so nothing about it is special: lines of words and numbers.
    const lines = Array.from(
      { length: 2400 },
      (_, i) => `line ${i}: the quick brown fox ${i * 7919} jumps`,
    );
    await writeFile(join(root, "big.txt"), lines.join("\n").slice(0, 120_000));

    const seen: { tokens: number; maxTokens: number; restarted: boolean }[] = [];
    let calls = 0;
    server = await startFakeMessagesApi((request) => {
      const body = request.body as { max_tokens: number; messages: Message[] };
      const tokens = Math.ceil(Buffer.byteLength(request.raw) / 2);
      const first = body.messages[0]?.content[0];
      seen.push({
        tokens,
        maxTokens: body.max_tokens,
        restarted:
          first?.type === "text" && first.text.startsWith("Your conversation grew too long"),
      });
      if (tokens + body.max_tokens > WINDOW) {
        return {
          kind: "error",
          status: 400,
          type: "invalid_request_error",
          message: "prompt is too long",
        };
      }
      const done = calls >= 300;
      calls++;
      return {
        kind: "message",
        message: {
          id: `msg_${calls}`,
          type: "message",
          role: "assistant",
          model: "claude-haiku-4-5",
          content: done
            ? [{ type: "text", text: "Read it all." }]
            : [
                {
                  type: "tool_use",
                  id: `toolu_${calls}`,
                  name: "read_file",
                  input: { path: "big.txt" },
                },
              ],
          stop_reason: done ? "end_turn" : "tool_use",
          stop_sequence: null,
          usage: {
            input_tokens: tokens,
            output_tokens: 40,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
          },
        },
      };
    });
    const model = createAnthropicModel({ apiKey: "sk-ant-api03-test", baseURL: server.url });
    const input = turnInput({ root, model, role: testRole(["read_file"]), toolCallsPerTurn: 1000 });
    const out = await runTurn({
      ...input,
      modelName: "claude-haiku-4-5",
      limits: { ...input.limits, maxTokens: undefined, readBytes: 200_000 },
    });

    expect(out.end).toEqual({ kind: "stopped" });
    expect(out.toolCalls).toBe(300);
    expect(seen).toHaveLength(301);
    // Never over the window, by the server's own pessimistic count…
    expect(Math.max(...seen.map((s) => s.tokens + s.maxTokens))).toBeLessThanOrEqual(WINDOW);
    // …because the worker started over, again and again, seeded with a summary.
    expect(seen.filter((s) => s.restarted).length).toBeGreaterThan(50);
    expect(seen.every((s) => s.maxTokens === 32_000)).toBe(true);
  });
});

describe("the context budget's parts", () => {
  const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

  it("keeps 10% of the window and the output budget free", () => {
    expect(inputLimit({ contextWindow: 200_000, maxOutput: 64_000 }, 32_000)).toBe(148_000);
  });

  it("counts a turn's first request at one token per byte, later ones from the API's count", () => {
    const meter = new ContextMeter();
    const all = [user("é".repeat(100))];
    expect(meter.estimate("sys", [], all, 0)).toBe(byteSize("sys") + byteSize([]) + byteSize(all));
    meter.observe(
      0,
      2,
      { inputTokens: 10, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 20 },
      true,
    );
    const more = [
      ...all,
      { role: "assistant", content: [{ type: "text", text: "ok" }] } as Message,
      user("next"),
    ];
    expect(meter.estimate("sys", [], more, 0)).toBe(135 + byteSize([user("next")]));
  });

  it("restarts with the task, the calls made, the files written, the last notes and the latest results", () => {
    const all: Message[] = [
      user("Write the parser."),
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading first." },
          {
            type: "tool_use",
            id: "a",
            name: "write_file",
            input: { path: "src/p.ts", content: "x" },
          },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "a", content: "Created src/p.ts" }],
      },
    ];
    const restart = restartMessage(all, 10_000);
    expect(restart.role).toBe("user");
    expect(restart.role === "user" && restart.restart).toBe(true);
    const text = JSON.stringify(restart);
    for (const part of [
      "Write the parser.",
      'write_file path=\\"src/p.ts\\"',
      "Files you wrote or edited: src/p.ts",
      "Reading first.",
      "Created src/p.ts",
    ]) {
      expect(text).toContain(part);
    }
    // Requests start at the restart: nothing earlier is sent again.
    const view = requestMessages([...all, restart]);
    expect(view).toHaveLength(1);
    expect(viewStart([...all, restart])).toBe(3);
    expect(JSON.stringify(view[0])).not.toContain('"restart"');
  });

  it("clips to a byte budget at either end, saying how much it left out", () => {
    const long = "a".repeat(1000);
    expect(Buffer.byteLength(clip(long, 200))).toBeLessThanOrEqual(200);
    expect(clip(long, 200)).toMatch(/^a+\n\[… 800 bytes left out …\]$/);
    expect(clip(`${"b".repeat(500)}end`, 100, "start")).toMatch(
      /^\[… \d+ bytes left out …\]\nb+end$/,
    );
    expect(clip("short", 100)).toBe("short");
  });
});

describe("toolsSize", () => {
  it("counts what the API adds for its own tools, not their few bytes (245 for bash, 700 for the editor)", () => {
    const custom = { name: "reply", description: "Reply.", input_schema: { type: "object" } };
    const editor = {
      type: "text_editor_20250728" as const,
      name: "str_replace_based_edit_tool" as const,
    };
    const bash = { type: "bash_20250124" as const, name: "bash" as const };
    expect(toolsSize([custom])).toBe(byteSize([custom]));
    expect(toolsSize([editor, bash, custom])).toBe(byteSize([editor, bash, custom]) + 945);
  });
});
