// A worker's request on the wire carries the repository's MCP tools as mcp__<server>__<tool>,
// after its built-in tools; the model's call to one runs in the server inside the sandbox and
// its result goes back in the next request. The real worker role, the real Anthropic adapter
// and SDK over HTTP to the fake Messages API, real bwrap, the server the tests write.

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { createAnthropicModel } from "../../../../src/adapters/anthropic/anthropic-model.js";
import { createBwrapSandbox } from "../../../../src/adapters/sandbox/bwrap-sandbox.js";
import { runTurn } from "../../../../src/agents/loop/index.js";
import { loadRole } from "../../../../src/agents/roles/index.js";
import { apiMessage } from "../../../support/anthropic/api-fixtures.js";
import { turnInput } from "../../../support/agents/turn-fixture.js";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
} from "../../../support/fake-messages-api/server.js";
import { removeDir } from "../../../support/git/temp-repo.js";
import {
  TINY_SERVER,
  TINY_SERVER_FILE,
  tinyMcpConfig,
} from "../../../support/mcp/tiny-mcp-server.js";
import { bwrapSuite, fixtureRoot } from "../../../support/sandbox/sandbox-fixtures.js";

const { bwrapPath, bit, skipped } = bwrapSuite();

let ws: string;
let api: FakeMessagesApi;

beforeAll(async () => {
  ws = await fixtureRoot("cfa-mcp-wire-");
  await writeFile(path.join(ws, TINY_SERVER_FILE), TINY_SERVER);
  // The model asks for the MCP tool once, then stops.
  api = await startFakeMessagesApi((request) => {
    const answered = JSON.stringify(request.body?.messages ?? []).includes('"tool_result"');
    return {
      kind: "message",
      message: answered
        ? apiMessage([{ type: "text", text: "done" }], "end_turn")
        : apiMessage(
            [{ type: "tool_use", id: "toolu_1", name: "mcp__tiny__echo", input: { text: "hi" } }],
            "tool_use",
          ),
    };
  });
});

afterAll(async () => {
  await api.close();
  await removeDir(ws);
});

describe(`a worker's turn with the repository's MCP server${skipped}`, () => {
  bit(
    "sends mcp__tiny__* after the built-in tools, and the call's result goes back on the wire",
    async () => {
      const role = loadRole("worker");
      const model = createAnthropicModel({ apiKey: "sk-ant-test", baseURL: api.url });
      const mcp = tinyMcpConfig(ws, createBwrapSandbox({ bwrapPath: bwrapPath! }), {
        allow: ["mcp__tiny__echo", "mcp__tiny__env"],
      });
      const result = await runTurn({ ...turnInput({ root: ws, model, role }), mcp });
      expect(mcp.problems).toEqual([]);
      expect(result.end).toEqual({ kind: "stopped" });

      const [first, second] = api.requests;
      const names = (first!.body!.tools as { name: string }[]).map((t) => t.name);
      const builtIn = names.filter((n) => !n.startsWith("mcp__"));
      expect(builtIn.length).toBeGreaterThan(0);
      expect(names).toEqual([...builtIn, "mcp__tiny__echo", "mcp__tiny__env"]);
      const echo = (
        first!.body!.tools as { name: string; description: string; input_schema: unknown }[]
      ).at(-2);
      expect(echo).toEqual({
        name: "mcp__tiny__echo",
        description: '(MCP server "tiny") Says the text back.',
        input_schema: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
        },
      });
      expect(second!.raw).toContain(
        '"type":"tool_result","tool_use_id":"toolu_1","content":"echo: hi"',
      );
    },
  );
});
