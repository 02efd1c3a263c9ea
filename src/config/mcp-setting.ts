// `mcp:` in .github/cfa.yml: which of `.mcp.json`'s tools each role is given, by tool-name
// pattern (`*` stands for any run of characters: `mcp__*`, `mcp__playwright__*`,
// `mcp__github__get_*`), and how long a server may take to start and a call to answer.
// Workers and verifiers get every server's tools by default, as Claude Code's agents do; the
// leads and the proxy get none unless named here: they plan and judge, they do not act.

import * as z from "zod";
import type { Role } from "./roles.js";

export const MCP_TOOL_PATTERN = /^mcp__[A-Za-z0-9_*-]{1,75}$/;

export const DEFAULT_MCP_TOOLS: Readonly<Record<Role, readonly string[]>> = {
  "intent-lead": [],
  "project-lead": [],
  worker: ["mcp__*"],
  verifier: ["mcp__*"],
  proxy: [],
};

const patterns = (role: Role) =>
  z
    .array(
      z.string().regex(MCP_TOOL_PATTERN, {
        error: "expected a tool-name pattern such as mcp__* or mcp__playwright__*",
      }),
    )
    .max(64)
    .default(() => [...DEFAULT_MCP_TOOLS[role]]);

export const McpSettingSchema = z
  .strictObject({
    tools: z
      .strictObject({
        "intent-lead": patterns("intent-lead"),
        "project-lead": patterns("project-lead"),
        worker: patterns("worker"),
        verifier: patterns("verifier"),
        proxy: patterns("proxy"),
      } satisfies Record<Role, z.ZodType>)
      .prefault({}),
    /** From spawning a server to its tool list. npx fetching a package counts against it. */
    startSeconds: z.int().min(1).max(600).default(60),
    /** One tool call, answer included. */
    callSeconds: z.int().min(1).max(3600).default(120),
  })
  .prefault({});

export type McpSetting = z.infer<typeof McpSettingSchema>;

/** True when `name` matches `pattern`, `*` matching any run of characters (none included). */
export function matchesToolPattern(pattern: string, name: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === name;
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (!name.startsWith(first) || name.length < first.length + last.length) return false;
  if (!name.endsWith(last)) return false;
  // Each middle part at its earliest place after the previous one: greedy-left is exact for
  // `*` globs, and the work is linear in the name.
  let at = first.length;
  const end = name.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
