export { openMcpToolbox, type McpToolbox } from "./mcp-toolbox.js";
export type { McpProblem, McpTurnConfig } from "./mcp-turn-config.js";
export { isMcpToolName, mcpToolName, MCP_PREFIX } from "./mcp-tool-name.js";
export { mcpResultText } from "./mcp-result-text.js";
