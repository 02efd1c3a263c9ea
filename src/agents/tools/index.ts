export { describeIssues } from "./describe-issues.js";
export { formatCommandResult } from "./format-command-result.js";
export { fromHost, hostTool } from "./host-tool.js";
export { runToolCall } from "./run-tool-call.js";
export { fail, ok } from "./tool.js";
export type { Tool, ToolContext, ToolEnd, ToolResult } from "./tool.js";
export { TOOL_NAMES, TURN_ENDING_TOOLS, isToolName, isTurnEndingTool } from "./tool-names.js";
export type { ToolName, TurnEndingTool } from "./tool-names.js";
export { TOOLS, roleTool, toolSpec, toolSpecs } from "./tool-registry.js";
