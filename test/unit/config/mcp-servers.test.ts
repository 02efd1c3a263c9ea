// `.mcp.json` as Claude Code writes it (https://code.claude.com/docs/en/mcp, project scope):
// what is taken, what is one bad server's line, what makes the whole file a line, and where
// `${VAR}` may come from.

import { describe, expect, it } from "vitest";
import {
  expandMcpServer,
  MCP_CONFIG_MAX_BYTES,
  parseMcpConfig,
  type McpServerConfig,
} from "../../../src/config/index.js";

describe("parseMcpConfig", () => {
  it("takes Claude Code's project file, and Copilot's local servers with their tools list", () => {
    const read = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          filesystem: {
            command: "npx",
            args: ["-y", "@modelcontextprotocol/server-filesystem", "."],
            env: { DEBUG: "${DEBUG:-false}" },
          },
          "my-tool": { type: "stdio", command: "node", args: ["./my-mcp-server.js"] },
          copilot: { type: "local", command: "node", args: ["s.js"], tools: ["*"] },
        },
      }),
    );
    expect(read).toEqual({
      ok: true,
      skipped: [],
      servers: [
        {
          name: "filesystem",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "."],
          env: { DEBUG: "${DEBUG:-false}" },
        },
        { name: "my-tool", command: "node", args: ["./my-mcp-server.js"], env: {} },
        { name: "copilot", command: "node", args: ["s.js"], env: {}, tools: ["*"] },
      ],
    });
    expect(parseMcpConfig(null)).toEqual({ ok: true, servers: [], skipped: [] });
  });

  it("leaves out, each with its reason, a remote server, a bad name and a server with no command", () => {
    const read = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          remote: { type: "http", url: "https://api.example.com/mcp" },
          two__underscores: { command: "x" },
          "no.dots": { command: "x" },
          empty: { args: [] },
          ok: { command: "node" },
        },
      }),
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.servers.map((s) => s.name)).toEqual(["ok"]);
    const reasons = Object.fromEntries(read.skipped.map((s) => [s.server, s.reason]));
    expect(reasons.remote).toContain("only local (stdio) servers run here");
    expect(reasons.two__underscores).toContain("a server name is");
    expect(reasons["no.dots"]).toContain("a server name is");
    expect(reasons.empty).toMatch(/command/);
    // JSON.parse makes "__proto__" an own key; it is refused like any name that is not one.
    const proto = parseMcpConfig(
      '{"mcpServers": {"__proto__": {"command": "x"}, "ok": {"command": "node"}}}',
    );
    expect(proto).toMatchObject({
      ok: true,
      servers: [{ name: "ok" }],
      skipped: [{ server: "__proto__" }],
    });
  });

  it("a file that is not JSON, not the shape, too large or naming too many servers is one reason", () => {
    expect(parseMcpConfig("{ nope")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("not JSON"),
    });
    expect(parseMcpConfig('{"servers": {}}')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('expected {"mcpServers"'),
    });
    expect(parseMcpConfig(" ".repeat(MCP_CONFIG_MAX_BYTES + 1))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("larger than 64 KiB"),
    });
    const many = Object.fromEntries(
      Array.from({ length: 17 }, (_, i) => [`s${i}`, { command: "x" }]),
    );
    expect(parseMcpConfig(JSON.stringify({ mcpServers: many }))).toMatchObject({
      ok: false,
      reason: "it names 17 servers; at most 16 run",
    });
  });
});

describe("expandMcpServer: ${VAR} from the sandbox's environment only", () => {
  const server: McpServerConfig = {
    name: "s",
    command: "${HOME}/bin/server",
    args: ["--mode", "${MODE:-fast}"],
    env: { LANG_SEEN: "${LANG}" },
  };
  const sandboxEnv = { HOME: "/work/ws", PATH: "/usr/bin", LANG: "C.UTF-8" };

  it("expands what the sandbox holds, and defaults", () => {
    expect(expandMcpServer(server, sandboxEnv)).toEqual({
      ok: true,
      server: {
        ...server,
        command: "/work/ws/bin/server",
        args: ["--mode", "fast"],
        env: { LANG_SEEN: "C.UTF-8" },
      },
    });
  });

  it("never a variable the sandbox does not hold: the server is left out, naming it", () => {
    const asks = { ...server, env: { TOKEN: "${GITHUB_TOKEN}", KEY: "${ANTHROPIC_API_KEY}" } };
    expect(expandMcpServer(asks, sandboxEnv)).toEqual({
      ok: false,
      reason: expect.stringContaining("${GITHUB_TOKEN}, ${ANTHROPIC_API_KEY}"),
    });
    expect(expandMcpServer({ ...server, env: { X: "${__proto__}" } }, sandboxEnv).ok).toBe(false);
  });
});
