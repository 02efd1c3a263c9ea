// The tool sets an agent can be given. A job keeps the set it started with, and a recording
// names the set it was made with, so a replay gives its agents the tools its responses call:
// a recording or a job that names none was made before sets had names, with `classic`.
//
// - `classic`: cfa-bot's own file tools (read_file, write_file, edit_file, list_files,
//   search_files) and run_command, an argv of a bare program name on the role's allowlist.
// - `bash-editor`: the tools Claude is trained on, Anthropic's bash tool (a shell session) and
//   text-editor tool (view, create, str_replace, insert), sent as their Anthropic-defined tool
//   types; the sandbox is the boundary and the role's command list a note and an audit line.

export const TOOL_SETS = ["classic", "bash-editor"] as const;
export type ToolSetName = (typeof TOOL_SETS)[number];

/** What a recording, a job record or a caller that names no set means: the set before names. */
export const UNNAMED_TOOL_SET: ToolSetName = "classic";
/** What a job started now gets. */
export const CURRENT_TOOL_SET: ToolSetName = "bash-editor";

export function isToolSetName(value: unknown): value is ToolSetName {
  return typeof value === "string" && (TOOL_SETS as readonly string[]).includes(value);
}

/** The set a recording or record names, or the unnamed one. */
export function toolSetOf(named: unknown): ToolSetName {
  return isToolSetName(named) ? named : UNNAMED_TOOL_SET;
}
