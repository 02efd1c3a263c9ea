// An MCP tool's name as the model sees it: `mcp__<server>__<tool>`, Claude Code's naming (its
// permission rules name a server's tools `mcp__puppeteer__puppeteer_navigate`, or all of them
// `mcp__puppeteer__*`: https://code.claude.com/docs/en/permissions), held to the Messages
// API's `^[a-zA-Z0-9_-]{1,64}$` for a tool name.

export const MCP_PREFIX = "mcp__";
const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The model's name for `tool` of `server`, or null when it cannot be one. */
export function mcpToolName(server: string, tool: string): string | null {
  const name = `${MCP_PREFIX}${server}__${tool}`;
  return API_TOOL_NAME.test(name) ? name : null;
}

export const isMcpToolName = (name: string): boolean => name.startsWith(MCP_PREFIX);
