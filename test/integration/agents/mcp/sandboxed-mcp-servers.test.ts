// The repository's MCP servers run inside the sandbox of the role that uses them: the tools
// reach the model as mcp__<server>__<tool>, a call runs in the server under the role's walls
// (no host network with `network: false`, an environment with no secret), every process a
// server started is gone when the turn's toolbox closes, and a server that fails is a
// reported line, never a failed turn. Real bwrap, a server the tests write and the MCP
// project's own reference server (@modelcontextprotocol/server-everything).

import { createServer, type Server } from "node:net";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { createBwrapSandbox } from "../../../../src/adapters/sandbox/bwrap-sandbox.js";
import { createUnsandboxed } from "../../../../src/adapters/sandbox/unsandboxed.js";
import { runTurn } from "../../../../src/agents/loop/index.js";
import type { Model, ModelResponse } from "../../../../src/ports/model.js";
import { testRole, turnInput } from "../../../support/agents/turn-fixture.js";
import { openMcpToolbox, type McpTurnConfig } from "../../../../src/agents/mcp/index.js";
import type { McpServerConfig } from "../../../../src/config/index.js";
import type { Sandbox } from "../../../../src/ports/sandbox.js";
import { registerSecret } from "../../../../src/secrets/index.js";
import { removeDir } from "../../../support/git/temp-repo.js";
import {
  TINY_SERVER,
  TINY_SERVER_FILE,
  tinyMcpConfig,
} from "../../../support/mcp/tiny-mcp-server.js";
import {
  bwrapSuite,
  fixtureRoot,
  markerSeconds,
  processesWith,
  waitUntilGone,
} from "../../../support/sandbox/sandbox-fixtures.js";
import { SANDBOX_NODE } from "../../../support/sandbox/sandbox-node.js";

const { bwrapPath, bit, skipped } = bwrapSuite();
const NODE_MODULES = fileURLToPath(new URL("../../../../node_modules", import.meta.url));
const EVERYTHING = path.join(NODE_MODULES, "@modelcontextprotocol/server-everything/dist/index.js");

let ws: string;
let sandbox: Sandbox;
let listener: Server;
let port: number;

beforeAll(async () => {
  ws = await fixtureRoot("cfa-mcp-");
  await writeFile(path.join(ws, TINY_SERVER_FILE), TINY_SERVER);
  listener = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
  if (bwrapPath !== null) {
    // The project's node_modules shown read-only, as sandbox.readOnlyPaths would show a
    // toolchain: server-everything and its dependencies live there.
    sandbox = createBwrapSandbox({
      bwrapPath,
      toolchains: { folders: [NODE_MODULES], hiddenFiles: [], binFolders: [], env: {} },
    });
  }
});

afterAll(async () => {
  listener.close();
  await removeDir(ws);
});

const config = (more: Partial<McpTurnConfig> = {}) => tinyMcpConfig(ws, sandbox, more);
const tiny: McpServerConfig = {
  name: "tiny",
  command: SANDBOX_NODE,
  args: [TINY_SERVER_FILE],
  env: {},
};

describe(`MCP servers in the sandbox${skipped}`, () => {
  bit(
    "a server's tools are offered as mcp__<server>__<tool>, after any pattern narrows them",
    async () => {
      const all = await openMcpToolbox(config());
      try {
        expect(all.specs.map((s) => s.name)).toEqual([
          "mcp__tiny__echo",
          "mcp__tiny__env",
          "mcp__tiny__connect",
          "mcp__tiny__spawn_sleeper",
          "mcp__tiny__big",
          "mcp__tiny__hang",
          "mcp__tiny__die",
        ]);
        expect(await all.call("mcp__tiny__echo", { text: "hi" })).toEqual({
          text: "echo: hi",
          isError: false,
        });
      } finally {
        await all.close();
      }
      const narrowed = await openMcpToolbox(config({ allow: ["mcp__tiny__e*"] }));
      try {
        expect(narrowed.specs.map((s) => s.name)).toEqual(["mcp__tiny__echo", "mcp__tiny__env"]);
        expect((await narrowed.call("mcp__tiny__big", { chars: 3 })).isError).toBe(true);
      } finally {
        await narrowed.close();
      }
    },
  );

  bit(
    "with network: false the server has no host network; the same server outside the sandbox connects (control)",
    async () => {
      const inside = await openMcpToolbox(config());
      try {
        const result = await inside.call("mcp__tiny__connect", { host: "127.0.0.1", port });
        expect(result.isError).toBe(true);
        expect(result.text).toMatch(/^failed E(CONNREFUSED|NETUNREACH)/);
      } finally {
        await inside.close();
      }
      const outside = await openMcpToolbox(config({ sandbox: createUnsandboxed() }));
      try {
        expect(await outside.call("mcp__tiny__connect", { host: "127.0.0.1", port })).toEqual({
          text: "connected",
          isError: false,
        });
      } finally {
        await outside.close();
      }
    },
  );

  bit("the server sees the environment it is given, and no secret of the engine's", async () => {
    registerSecret("ghs_planted_for_mcp_test_0123456789");
    const box = await openMcpToolbox(
      config({
        servers: [
          {
            ...tiny,
            env: {
              MODE: "test",
              HOME_SEEN: "${HOME}",
              LEAK: "ghs_planted_for_mcp_test_0123456789",
            },
          },
        ],
      }),
    );
    try {
      const env = JSON.parse((await box.call("mcp__tiny__env", {})).text) as Record<string, string>;
      expect(env.MODE).toBe("test");
      expect(env.HOME_SEEN).toBe(ws);
      expect(env.LEAK).toBeUndefined();
      expect(Object.keys(env).some((k) => /TOKEN|API_KEY/.test(k))).toBe(false);
    } finally {
      await box.close();
    }
  });

  bit("nothing a server started outlives the turn's toolbox", async () => {
    const marker = markerSeconds();
    const box = await openMcpToolbox(config());
    await box.call("mcp__tiny__spawn_sleeper", { marker });
    expect(await processesWith(marker)).toHaveLength(1);
    await box.close();
    expect(await waitUntilGone(marker)).toEqual([]);
  });

  bit(
    "a turn cut short (a withdrawal aborts it) stops its servers and what they started",
    async () => {
      const marker = markerSeconds();
      const stop = new AbortController();
      const calls = [
        { name: "mcp__tiny__spawn_sleeper", input: { marker } },
        { name: "mcp__tiny__hang", input: {} },
      ];
      let n = 0;
      const model: Model = {
        complete: async () => {
          const next = calls[n++]!;
          // The withdrawal arrives while the turn waits on the server's answer.
          if (next.name === "mcp__tiny__hang")
            queueMicrotask(() => stop.abort(new Error("withdrawn")));
          return {
            content: [{ type: "tool_use", id: `toolu_${n}`, name: next.name, input: next.input }],
            stopReason: "tool_use",
            usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
            model: "claude-test",
          } satisfies ModelResponse;
        },
      };
      const turn = runTurn({
        ...turnInput({ root: ws, model, role: testRole([]), signal: stop.signal }),
        mcp: config(),
      });
      await expect(turn).rejects.toThrow("withdrawn");
      expect(await waitUntilGone(marker)).toEqual([]);
    },
  );

  bit(
    "a server that cannot start, or names a variable the sandbox does not hold, is a reported line; the others run",
    async () => {
      const c = config({
        servers: [
          { name: "missing", command: "no-such-program-here", args: [], env: {} },
          {
            name: "secretive",
            command: SANDBOX_NODE,
            args: [TINY_SERVER_FILE],
            env: { T: "${GITHUB_TOKEN}" },
          },
          tiny,
        ],
      });
      const box = await openMcpToolbox(c);
      try {
        expect(box.specs.every((s) => s.name.startsWith("mcp__tiny__"))).toBe(true);
        expect(c.problems.map((p) => p.server).sort()).toEqual(["missing", "secretive"]);
        expect(c.problems.find((p) => p.server === "secretive")?.reason).toContain(
          "${GITHUB_TOKEN}",
        );
        expect(c.problems.find((p) => p.server === "missing")?.reason).toMatch(
          /did not start: exited/,
        );
      } finally {
        await box.close();
      }
    },
  );

  bit(
    "a call past its time limit, a server that dies and an oversized answer come back as tool results",
    async () => {
      // Only the call that never answers meets the short limit: no answer comes, however
      // loaded the machine, so the test does not race the clock.
      const hanging = await openMcpToolbox(config({ callMs: 1_000 }));
      try {
        const hang = await hanging.call("mcp__tiny__hang", {});
        expect(hang).toEqual({
          isError: true,
          text: expect.stringContaining("did not answer within 1 s"),
        });
      } finally {
        await hanging.close();
      }
      const c = config({ resultChars: 100 });
      const box = await openMcpToolbox(c);
      try {
        const big = await box.call("mcp__tiny__big", { chars: 5_000 });
        expect(big.text).toMatch(/^x{100}\n\[… cut: 4,900 more characters\]$/);
        const died = await box.call("mcp__tiny__die", {});
        expect(died.isError).toBe(true);
        expect(died.text).toMatch(/exited \(exit code 7\)/);
        expect(c.problems).toEqual([
          { server: "tiny", reason: expect.stringContaining("stopped during the turn") },
        ]);
        expect((await box.call("mcp__tiny__echo", { text: "x" })).isError).toBe(true);
      } finally {
        await box.close();
      }
    },
  );

  bit("@modelcontextprotocol/server-everything runs in the sandbox with no network", async () => {
    const c = config({
      servers: [
        { name: "everything", command: SANDBOX_NODE, args: [EVERYTHING, "stdio"], env: {} },
      ],
      allow: ["mcp__everything__echo", "mcp__everything__get-sum", "mcp__everything__get-env"],
    });
    const box = await openMcpToolbox(c);
    try {
      expect(c.problems).toEqual([]);
      expect(box.specs.map((s) => s.name).sort()).toEqual([
        "mcp__everything__echo",
        "mcp__everything__get-env",
        "mcp__everything__get-sum",
      ]);
      expect((await box.call("mcp__everything__echo", { message: "hello" })).text).toBe(
        "Echo: hello",
      );
      expect((await box.call("mcp__everything__get-sum", { a: 2, b: 3 })).text).toContain("5");
      const env = (await box.call("mcp__everything__get-env", {})).text;
      expect(env).not.toMatch(/GITHUB_TOKEN|ANTHROPIC_API_KEY/);
    } finally {
      await box.close();
    }
  });
});
