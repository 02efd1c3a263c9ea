// The MCP tools of one turn: the repository's servers (`.mcp.json`, default branch) that the
// role's patterns let through, each started inside the sandbox with the role's network,
// environment and limits, their tools offered to the model as `mcp__<server>__<tool>` after
// the built-in ones, and all of them stopped when the turn ends. A server that does not start,
// or dies, is reported once and its tools are absent or answer with an error; the turn goes on.

import { expandMcpServer, matchesToolPattern, type McpServerConfig } from "../../config/index.js";
import type { ToolSpec } from "../../ports/model.js";
import type { Sandbox } from "../../ports/sandbox.js";
import { holdsKnownSecret, redactKnown } from "../../secrets/index.js";
import { fail, type ToolResult } from "../tools/tool.js";
import { mcpResultText } from "./mcp-result-text.js";
import { McpServer, McpServerError, type ListedTool } from "./mcp-server.js";
import { mcpToolName } from "./mcp-tool-name.js";
import type { McpTurnConfig } from "./mcp-turn-config.js";

export interface McpToolbox {
  /** The tools' specs, in `.mcp.json`'s server order, each server's in its own order. */
  readonly specs: ToolSpec[];
  /** True for a name in `specs` (a recorded call to a server not running here is not). */
  has(name: string): boolean;
  call(name: string, input: unknown, signal?: AbortSignal): Promise<ToolResult>;
  /** Stops every server; safe to call more than once. */
  close(): Promise<void>;
}

const DESCRIPTION_CHARS = 1024;
const SCHEMA_CHARS = 16 * 1024;

/** Starts the servers the role may use, in parallel; never throws but for an abort. */
export async function openMcpToolbox(
  config: McpTurnConfig,
  signal?: AbortSignal,
): Promise<McpToolbox> {
  const wanted = config.servers.filter((server) =>
    config.allow.some((pattern) => couldMatch(pattern, server.name)),
  );
  const said = new Set<string>();
  const report = (server: string, reason: string) => {
    const key = `${server}\n${reason}`;
    if (said.has(key)) return;
    said.add(key);
    config.report({ server, reason: redactKnown(reason, "an MCP server's failure") });
  };
  let sandbox: Sandbox | null = null;
  if (wanted.length > 0) {
    try {
      sandbox = typeof config.sandbox === "function" ? await config.sandbox() : config.sandbox;
    } catch (error) {
      for (const s of wanted) report(s.name, `not started: ${(error as Error).message}`);
    }
  }
  const started = sandbox === null ? [] : await Promise.all(wanted.map((s) => start(s, sandbox!)));

  async function start(server: McpServerConfig, box: Sandbox) {
    const expanded = expandMcpServer(server, config.env);
    if (!expanded.ok) {
      report(server.name, `not started: ${expanded.reason}`);
      return null;
    }
    const { command, args, env } = expanded.server;
    // Literal values are the repository's configuration; one that holds a secret of this
    // process (pasted by mistake) is dropped, as a command's environment would drop it.
    const literal = Object.entries(env).filter(([, value]) => !holdsKnownSecret(value));
    try {
      const { server: running, tools } = await McpServer.start(
        box,
        {
          name: server.name,
          argv: [command, ...args],
          env: { ...config.env, ...Object.fromEntries(literal) },
          cwd: config.cwd,
          network: config.network,
          ...(config.limits === undefined ? {} : { limits: config.limits }),
        },
        config.startMs,
        signal,
      );
      return { config: server, running, tools };
    } catch (error) {
      if (signal?.aborted) throw error;
      if (!(error instanceof McpServerError)) throw error;
      report(server.name, `did not start: ${error.message}`);
      return null;
    }
  }

  const specs: ToolSpec[] = [];
  const routes = new Map<string, { server: McpServer; name: string; config: McpServerConfig }>();
  for (const entry of started) {
    if (entry === null) continue;
    const left: string[] = [];
    for (const tool of entry.tools) {
      const name = mcpToolName(entry.config.name, tool.name);
      if (name === null) {
        left.push(tool.name.slice(0, 40));
        continue;
      }
      if (!config.allow.some((p) => matchesToolPattern(p, name))) continue;
      if (!serverAllows(entry.config, tool.name) || routes.has(name)) continue;
      const spec = toolSpec(entry.config.name, name, tool);
      if (spec === null) {
        left.push(tool.name.slice(0, 40));
        continue;
      }
      specs.push(spec);
      routes.set(name, { server: entry.running, name: tool.name, config: entry.config });
    }
    if (left.length > 0) {
      report(
        entry.config.name,
        `${left.length} tool(s) left out (a name that does not fit mcp__<server>__<tool> in 64 characters, or a schema over ${SCHEMA_CHARS / 1024} KiB): ${left.slice(0, 5).join(", ")}`,
      );
    }
  }

  let closing: Promise<void> | null = null;
  return {
    specs,
    has: (name) => routes.has(name),
    async call(name, input, callSignal) {
      const route = routes.get(name);
      if (route === undefined) {
        return fail(
          `cfa/mcp: ${name} is not available: no MCP server running in this turn offers it (a server that did not start is named in the job's status comment)`,
        );
      }
      if (input === null || typeof input !== "object" || Array.isArray(input)) {
        return fail(`cfa/mcp: the input of ${name} must be a JSON object`);
      }
      try {
        const result = await route.server.call(
          route.name,
          input as Record<string, unknown>,
          config.callMs,
          callSignal ?? signal,
        );
        const { text, isError } = mcpResultText(result, config.resultChars);
        return { text, isError };
      } catch (error) {
        if ((callSignal ?? signal)?.aborted) throw error;
        if (!(error instanceof McpServerError)) throw error;
        if (route.server.exited)
          report(route.config.name, `stopped during the turn: ${error.message}`);
        return fail(`cfa/mcp: ${name}: the server ${route.config.name} ${error.message}`);
      }
    },
    close() {
      return (closing ??= (async () => {
        await Promise.all(
          started.map(async (entry) => {
            if (entry === null) return;
            await entry.running.stop();
            const refused = entry.running.blocked();
            if (refused.length > 0) config.blocked?.(entry.config.name, refused);
          }),
        );
      })());
    },
  };
}

/** Copilot's per-server `tools` list: absent or `*` means every tool. */
function serverAllows(server: McpServerConfig, tool: string): boolean {
  return server.tools === undefined || server.tools.includes("*") || server.tools.includes(tool);
}

/** Whether some tool of `server` could match `pattern` (servers no pattern reaches never start). */
function couldMatch(pattern: string, server: string): boolean {
  const prefix = `mcp__${server}__`;
  const literal = pattern.split("*")[0]!;
  return literal.length <= prefix.length ? prefix.startsWith(literal) : literal.startsWith(prefix);
}

/** The model's view of a listed tool, or null when it cannot be offered as one. */
function toolSpec(server: string, name: string, tool: ListedTool): ToolSpec | null {
  const schema = tool.inputSchema;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return null;
  if (JSON.stringify(schema).length > SCHEMA_CHARS) return null;
  const text = redactKnown(tool.description, "an MCP tool's description").slice(
    0,
    DESCRIPTION_CHARS,
  );
  return {
    name,
    // The server's own words, marked as such: the model knows where the tool comes from.
    description: `(MCP server "${server}") ${text}`.trim(),
    input_schema: { type: "object", ...(schema as Record<string, unknown>) },
  };
}
