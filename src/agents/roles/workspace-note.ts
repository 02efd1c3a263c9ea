// What a role of the `bash-editor` set is told about its workspace tools. The bash and editor
// tools are Anthropic's, their schemas built into the model with no description of ours, so
// what the sandbox does, where paths start, what the network reaches and which commands the
// project expects is said here, in the role's system prompt. The command list is a note and an
// audit line, not a boundary: the sandbox is.

import { networkLine } from "../commands/network-line.js";
import type { RoleDefinition } from "../turn-contract.js";

export function workspaceNote(role: RoleDefinition): string {
  const editor = role.tools.includes("str_replace_based_edit_tool");
  const bash = role.tools.includes("bash");
  if (role.toolSet !== "bash-editor" || (!editor && !bash)) return "";
  const lines = ["# Your workspace", ""];
  lines.push(
    editor
      ? "Your workspace is a git worktree. The editor takes paths relative to its root (or absolute paths inside it); `.git` and what the engine keeps under `.cfa/` (past your own phase's artifact) are refused."
      : "Your workspace is a git worktree.",
  );
  if (bash) {
    lines.push(
      `bash starts in the workspace root and keeps, from one call to the next, the folder you \`cd\` into and the variables you \`export\` (\`restart\` starts a fresh session). Each call runs sandboxed: only the workspace is writable, with time, output and resource limits.${networkLine(role.network)}`,
    );
    lines.push(
      role.commands.length > 0
        ? `The programs this project expects of your role: ${role.commands.join(", ")}. Others run too; each one outside this list is noted in the job's audit.`
        : "This role is not expected to run programs; any you run is noted in the job's audit.",
    );
  }
  return `${lines.join("\n")}\n`;
}
