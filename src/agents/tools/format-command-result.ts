// A command's result as the model reads it: how it ended first, then each stream, then
// whether anything was cut, so a truncated or killed run is never mistaken for a full one.

import type { CommandResult } from "../../ports/sandbox.js";

export function formatCommandResult(result: CommandResult): string {
  const lines: string[] = [];
  if (result.timedOut) {
    lines.push("timed out: the command ran past its time limit and was killed");
  } else if (result.exitCode !== null) {
    lines.push(`exit code: ${result.exitCode}`);
  } else {
    lines.push(`killed by signal ${result.signal ?? "(unknown)"}`);
  }
  lines.push(section("stdout", result.stdout), section("stderr", result.stderr));
  if (result.truncated) {
    lines.push(
      "[output truncated at the byte limit; narrow the command (head, grep) to see the rest]",
    );
  }
  return lines.join("\n");
}

function section(name: string, text: string): string {
  if (text === "") return `${name}: (empty)`;
  return `${name}:\n${text.endsWith("\n") ? text.slice(0, -1) : text}`;
}
