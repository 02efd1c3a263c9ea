// What the engine hands a turn whose role may use the repository's MCP servers: the servers,
// the role's patterns, the sandbox and walls they run under, their time limits, and where a
// failure is reported (a line in the status comment). The agents layer runs them.

import type { McpServerConfig } from "../../config/index.js";
import type { BlockedRequest, CommandLimits, NetworkAccess, Sandbox } from "../../ports/sandbox.js";

export interface McpProblem {
  server: string;
  reason: string;
}

export interface McpTurnConfig {
  /** `.mcp.json`'s servers, as the default branch holds them. */
  servers: readonly McpServerConfig[];
  /** The role's tool-name patterns (`mcp:` in .github/cfa.yml). */
  allow: readonly string[];
  sandbox: Sandbox | (() => Promise<Sandbox>);
  /** The workspace: each server's cwd and HOME. */
  cwd: string;
  /** The environment a command of the role gets (reduced, HOME = the workspace). */
  env: Readonly<Record<string, string>>;
  network: NetworkAccess;
  limits?: CommandLimits;
  startMs: number;
  callMs: number;
  /** The most a result says to the model, in characters. */
  resultChars: number;
  /** A server left out, or that failed: one line for the person, each said once. */
  report(problem: McpProblem): void;
  /** Requests a server's egress proxy refused, said when the server stops. */
  blocked?(server: string, requests: BlockedRequest[]): void;
}
