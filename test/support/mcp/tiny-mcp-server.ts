// A tiny MCP server the tests write into a workspace and start with the system's node: raw
// newline-delimited JSON-RPC on stdin and stdout (the stdio transport of the MCP spec,
// https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#stdio), no SDK,
// so it runs inside the sandbox where the project's node_modules are not shown. Its tools are
// probes: what it sees, what it can reach, and how it behaves badly.

import type { McpProblem, McpTurnConfig } from "../../../src/agents/mcp/index.js";
import type { Sandbox } from "../../../src/ports/sandbox.js";
import { SYSTEM_PATH } from "../sandbox/sandbox-fixtures.js";
import { SANDBOX_NODE } from "../sandbox/sandbox-node.js";

export const TINY_SERVER_FILE = "tiny-mcp-server.cjs";

/**
 * A turn's MCP configuration with the tiny server in workspace `ws` (written there first):
 * every tool, no network, the system PATH, generous limits; `problems` collects the reports.
 */
export function tinyMcpConfig(
  ws: string,
  sandbox: Sandbox,
  more: Partial<McpTurnConfig> = {},
): McpTurnConfig & { problems: McpProblem[] } {
  const problems: McpProblem[] = [];
  return {
    servers: [{ name: "tiny", command: SANDBOX_NODE, args: [TINY_SERVER_FILE], env: {} }],
    allow: ["mcp__*"],
    sandbox,
    cwd: ws,
    env: { PATH: SYSTEM_PATH, HOME: ws },
    network: false,
    startMs: 30_000,
    callMs: 30_000,
    resultChars: 10_000,
    report: (p) => problems.push(p),
    problems,
    ...more,
  };
}

export const TINY_SERVER = String.raw`
const net = require("node:net");
const { spawn } = require("node:child_process");
const tools = [
  { name: "echo", description: "Says the text back.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  { name: "env", description: "The names and values of the server's environment.", inputSchema: { type: "object", properties: {} } },
  { name: "connect", description: "Tries a TCP connection.", inputSchema: { type: "object", properties: { host: { type: "string" }, port: { type: "number" } } } },
  { name: "spawn_sleeper", description: "Starts a child that sleeps, marked by its argument.", inputSchema: { type: "object", properties: { marker: { type: "string" } } } },
  { name: "big", description: "Answers with many characters.", inputSchema: { type: "object", properties: { chars: { type: "number" } } } },
  { name: "hang", description: "Never answers.", inputSchema: { type: "object", properties: {} } },
  { name: "die", description: "Exits at once.", inputSchema: { type: "object", properties: {} } },
];
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const text = (id, t, isError) => send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: t }], ...(isError ? { isError: true } : {}) } });
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (line.trim() !== "") handle(JSON.parse(line));
  }
});
function handle(m) {
  if (m.id === undefined) return; // a notification
  if (m.method === "initialize") {
    return send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "tiny", version: "1" } } });
  }
  if (m.method === "tools/list") return send({ jsonrpc: "2.0", id: m.id, result: { tools } });
  if (m.method !== "tools/call") return send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no such method" } });
  const a = m.params.arguments || {};
  switch (m.params.name) {
    case "echo": return text(m.id, "echo: " + a.text);
    case "env": return text(m.id, JSON.stringify(process.env));
    case "connect": {
      const s = net.connect({ host: a.host, port: a.port });
      s.on("connect", () => { s.destroy(); text(m.id, "connected"); });
      s.on("error", (e) => text(m.id, "failed " + e.code, true));
      return;
    }
    case "spawn_sleeper": {
      spawn("sleep", [a.marker], { stdio: "ignore", detached: true }).unref();
      return text(m.id, "sleeping " + a.marker);
    }
    case "big": return text(m.id, "x".repeat(a.chars));
    case "hang": return;
    case "die": process.exit(7);
  }
}
`;
