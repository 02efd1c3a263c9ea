// `.mcp.json` at the repository's root: the MCP servers Claude Code reads from a project
// ("Project-scoped servers … in a .mcp.json file at your project's root directory", in the
// form `{"mcpServers": {"<name>": {"command", "args", "env"}}}`,
// https://code.claude.com/docs/en/mcp#project-scope), which Copilot coding agent's MCP
// configuration shares (`mcpServers`, `type: "local"`, an optional `tools` list). Read from the
// default branch only, like `.github/cfa.yml`: what runs beside the agents is never what an
// agent wrote on the job branch.
//
// Only local stdio servers run here, inside the sandbox of the role that uses them: an `http`
// or `sse` server is left out with a line saying so. A bad file is one line in the status
// comment, and no server runs; one bad server is its own line, and the others run.

import * as z from "zod";
import { describeIssues } from "./describe-issues.js";

/** One line of what zod found, fields named (values echoed: the file holds no secret of ours). */
const issuesLine = (issues: readonly z.core.$ZodIssue[], input: unknown, schema: z.ZodType) =>
  describeIssues(issues, input, { schema, source: "the file", echo: true })
    .map((i) => i.message)
    .join("; ");

export const MCP_CONFIG_PATH = ".mcp.json";
/** The file is a short configuration; anything past this is not one. */
export const MCP_CONFIG_MAX_BYTES = 64 * 1024;
export const MCP_SERVERS_MAX = 16;

/**
 * A server name becomes part of a tool name, `mcp__<server>__<tool>`, which the Messages API
 * holds to `^[a-zA-Z0-9_-]{1,64}$`: letters, digits, `_` and `-`, and never `__` (the
 * separator) or a name JavaScript objects treat specially.
 */
export const MCP_SERVER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_)){0,30}$/;
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export interface McpServerConfig {
  name: string;
  command: string;
  args: string[];
  /** Literal values, and `${VAR}` / `${VAR:-default}` (expanded by expandMcpServer). */
  env: Record<string, string>;
  /** Copilot's per-server list of tool names to give the agents (`*` for all); all when absent. */
  tools?: string[];
}

export type McpConfigRead =
  | { ok: true; servers: McpServerConfig[]; skipped: { server: string; reason: string }[] }
  | { ok: false; reason: string };

const text = (max: number) => z.string().max(max, { error: `at most ${max} characters` });

const ServerSchema = z.object({
  type: z
    .string()
    .optional()
    .refine((t) => t === undefined || t === "stdio" || t === "local", {
      error: (issue) =>
        `type ${JSON.stringify(issue.input)} is a remote server: only local (stdio) servers run here, inside the sandbox`,
    }),
  command: text(1024).min(1, { error: "names no command" }),
  args: z.array(text(8192)).max(256).default([]),
  env: z
    .record(z.string().regex(ENV_NAME, { error: "is not a variable name" }), text(8192))
    .default({}),
  tools: z.array(text(200)).max(256).optional(),
});

const FileSchema = z.object({
  mcpServers: z.record(z.string(), z.unknown()),
});

/** `.mcp.json`'s text (null: absent) as the servers it names, or why it is not valid. */
export function parseMcpConfig(source: string | null): McpConfigRead {
  if (source === null) return { ok: true, servers: [], skipped: [] };
  if (Buffer.byteLength(source) > MCP_CONFIG_MAX_BYTES) {
    return { ok: false, reason: `it is larger than ${MCP_CONFIG_MAX_BYTES / 1024} KiB` };
  }
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    return { ok: false, reason: `it is not JSON (${(error as Error).message})` };
  }
  const file = FileSchema.safeParse(json);
  if (!file.success) {
    return {
      ok: false,
      reason: `expected {"mcpServers": {"<name>": {"command", "args", "env"}}}: ${issuesLine(file.error.issues, json, FileSchema)}`,
    };
  }
  // The parsed JSON's own keys, not zod's copy: zod drops a "__proto__" key silently, and a
  // name refused should be said.
  const entries = Object.entries((json as { mcpServers: Record<string, unknown> }).mcpServers);
  if (entries.length > MCP_SERVERS_MAX) {
    return {
      ok: false,
      reason: `it names ${entries.length} servers; at most ${MCP_SERVERS_MAX} run`,
    };
  }
  const servers: McpServerConfig[] = [];
  const skipped: { server: string; reason: string }[] = [];
  for (const [name, entry] of entries) {
    if (!MCP_SERVER_NAME.test(name) || RESERVED.has(name)) {
      skipped.push({
        server: name.slice(0, 40),
        reason:
          "a server name is 1–31 letters, digits, '-' or single '_' (it becomes part of the tool names mcp__<server>__<tool>)",
      });
      continue;
    }
    const server = ServerSchema.safeParse(entry);
    if (!server.success) {
      skipped.push({ server: name, reason: issuesLine(server.error.issues, entry, ServerSchema) });
      continue;
    }
    const { command, args, env, tools } = server.data;
    servers.push({ name, command, args, env, ...(tools === undefined ? {} : { tools }) });
  }
  return { ok: true, servers, skipped };
}

/**
 * `${VAR}` and `${VAR:-default}` in command, args and env, as Claude Code expands them
 * (https://code.claude.com/docs/en/mcp, "Environment variable expansion in .mcp.json"), but
 * from `available` only: the environment the sandbox gives a command of the role (PATH, LANG,
 * HOME = the workspace…, never a token). The worker's own environment holds the App's key and
 * the GitHub token; a file that names `${GITHUB_TOKEN}` must not hand it to a process the
 * agents drive. A variable that is not there and has no default leaves the server out, named,
 * as Claude Code fails such a file.
 */
export function expandMcpServer(
  server: McpServerConfig,
  available: Readonly<Record<string, string>>,
): { ok: true; server: McpServerConfig } | { ok: false; reason: string } {
  const missing = new Set<string>();
  const expand = (value: string) =>
    value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]{0,127})(?::-([^}]{0,1024}))?\}/g,
      (_whole, name: string, fallback: string | undefined) => {
        const found = Object.hasOwn(available, name) ? available[name] : undefined;
        if (found !== undefined && found !== "") return found;
        if (fallback !== undefined) return fallback;
        missing.add(name);
        return "";
      },
    );
  const expanded: McpServerConfig = {
    ...server,
    command: expand(server.command),
    args: server.args.map(expand),
    env: Object.fromEntries(Object.entries(server.env).map(([k, v]) => [k, expand(v)])),
  };
  if (missing.size > 0) {
    const names = [...missing].map((n) => `\${${n}}`).join(", ");
    return {
      ok: false,
      reason: `it names ${names}, which the sandbox's environment does not hold (no secret or runner variable ever does); give a default (\${NAME:-value}) or a literal value`,
    };
  }
  return { ok: true, server: expanded };
}
