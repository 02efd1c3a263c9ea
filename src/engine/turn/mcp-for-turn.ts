// What a turn gets of the repository's MCP servers: `.mcp.json` as the default branch holds it
// (read once a wake, never the job branch an agent writes), the role's patterns (`mcp:` in
// .github/cfa.yml), and the walls a command of the role has — its sandbox, network, limits and
// reduced environment. A file or server that fails is a record change, shown as one line in
// the status comment; the turn runs with the tools that did start.

import { reduceEnv, withToolDefaults } from "../../agents/commands/index.js";
import type { McpTurnConfig } from "../../agents/mcp/index.js";
import type { RoleName } from "../../agents/roles/index.js";
import { egressFor } from "../../config/egress.js";
import { MCP_CONFIG_PATH, parseMcpConfig, type McpConfigRead } from "../../config/index.js";
import type { Address } from "../../protocol/address.js";
import { addressKey } from "../../protocol/address.js";
import { commandLine } from "../../records/command-evidence.js";
import { applyChange, now, type JobRecords, type Reporter } from "../job/session.js";

const reads = new WeakMap<JobRecords, Promise<McpConfigRead>>();

/** `.mcp.json` of the default branch, read and checked once per wake; its problems said once. */
function mcpConfigOf(s: JobRecords & Reporter): Promise<McpConfigRead> {
  let read = reads.get(s);
  if (read === undefined) {
    read = s.deps.forge
      .readDefaultBranchFile(MCP_CONFIG_PATH)
      .then(parseMcpConfig, (error: unknown): McpConfigRead => ({
        ok: false,
        reason: `it could not be read (${(error as Error).message})`,
      }))
      .then((parsed) => {
        const problem = (server: string, reason: string) =>
          applyChange(s, { type: "mcp-problem", server, reason, by: "wake", at: now(s) });
        if (!parsed.ok) {
          problem("", `not valid on the default branch, so no MCP server runs: ${parsed.reason}`);
        } else {
          for (const skip of parsed.skipped) problem(skip.server, `left out: ${skip.reason}`);
        }
        return parsed;
      });
    reads.set(s, read);
  }
  return read;
}

/** The turn's MCP servers, or undefined when the role may use none or there are none. */
export async function mcpForTurn(
  s: JobRecords & Reporter,
  a: Address,
  role: RoleName,
  workspaceRoot: string,
): Promise<McpTurnConfig | undefined> {
  const allow = s.config.mcp.tools[role];
  if (allow.length === 0) return undefined;
  const read = await mcpConfigOf(s);
  if (!read.ok || read.servers.length === 0) return undefined;
  const by = addressKey(a);
  return {
    servers: read.servers,
    allow,
    sandbox: () => s.deps.sandbox(s.config.sandbox),
    cwd: workspaceRoot,
    env: withToolDefaults(reduceEnv(s.deps.env, [], { home: workspaceRoot })),
    network: egressFor(s.config.network[role]),
    limits: s.config.commandLimits[role],
    startMs: s.config.mcp.startSeconds * 1000,
    callMs: s.config.mcp.callSeconds * 1000,
    resultChars: s.config.limits.commandOutputBytes,
    report: ({ server, reason }) =>
      applyChange(s, { type: "mcp-problem", server, reason, by, at: now(s) }),
    blocked: (server, requests) =>
      applyChange(s, {
        type: "requests-blocked",
        by,
        at: now(s),
        blocked: requests.map((b) => ({
          host: b.host,
          port: b.port,
          protocol: b.protocol,
          reason: b.reason,
          command: commandLine(["mcp", server]),
          count: b.count,
        })),
      }),
  };
}
