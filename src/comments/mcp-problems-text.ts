// The repository's MCP servers that the engine could not give the agents, one line each, as
// the status comment and the check runs show them: the server, what the engine saw (it did not
// start, it exited, it named a variable the sandbox does not hold, `.mcp.json` itself is not
// valid), who met it and how often. Its tools were absent; the job went on.

import type { EngineState } from "../records/engine-state.js";
import { codeSpan } from "./untrusted-code.js";

export function mcpProblemsSection(engine: EngineState): string[] {
  const problems = engine.mcp?.problems ?? [];
  if (problems.length === 0) return [];
  const lines = [
    "",
    "**MCP servers** (`.mcp.json` on the default branch): their tools were absent where these were met.",
  ];
  for (const p of problems) {
    const who = p.server === "" ? "`.mcp.json`" : `server ${codeSpan(p.server, 40)}`;
    const times = p.count > 1 ? ` (${p.count} times)` : "";
    lines.push(`- ${who}: ${codeSpan(p.reason, 300)} — ${codeSpan(p.by, 60)}${times}`);
  }
  return lines;
}
