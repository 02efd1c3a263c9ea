// Every tool an agent can be given. A role's front matter names a subset; anything else is
// refused before it runs (docs/protocol.md#workspaces: the tool surface is structural, not
// prompt-driven).

export const TOOL_NAMES = [
  // The `bash-editor` set's workspace tools: Anthropic-defined, their names fixed by the API.
  "str_replace_based_edit_tool",
  "bash",
  // The `classic` set's (tool-sets.ts).
  "read_file",
  "write_file",
  "edit_file",
  "list_files",
  "search_files",
  "run_command",
  // The protocol's, in the order roles list them (prompts/roles): the prefix two roles share
  // is the same bytes in both their requests.
  "ask_question",
  "dispatch",
  "send",
  "close",
  "finish",
  "reply",
  "verdict",
  "answer",
  "escalate",
  "withdraw",
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export function isToolName(value: unknown): value is ToolName {
  return typeof value === "string" && (TOOL_NAMES as readonly string[]).includes(value);
}

/**
 * Tools that end the turn when they succeed, so they must be the only call in their
 * response: what follows them in the same response could not be answered before the turn ends
 * ([ask-step]; the outcome record is the skill's terminal, docs/protocol.md#skill-contract).
 */
export const TURN_ENDING_TOOLS = [
  "ask_question",
  "finish",
  // The verifier's and the proxy's single decisions are their turn's terminal too.
  "verdict",
  "answer",
  "escalate",
  "withdraw",
] as const satisfies readonly ToolName[];
export type TurnEndingTool = (typeof TURN_ENDING_TOOLS)[number];

export function isTurnEndingTool(value: unknown): value is TurnEndingTool {
  return typeof value === "string" && (TURN_ENDING_TOOLS as readonly string[]).includes(value);
}
