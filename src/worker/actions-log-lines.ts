// The one escaper for the Actions log. The runner reads the worker's output a
// line at a time and runs any line that is a workflow command: `::name props::data` at the
// start of the line once leading whitespace is trimmed, or the older `##[name props]data`
// anywhere in it (actions/runner src/Runner.Common/ActionCommand.cs: TryParseV2 trims and
// tests StartsWith("::"), TryParse looks for "##[" with IndexOf; ActionCommandManager tries
// both). So a file name with a newline in it (`a\n::add-mask::x`), printed as is, would hide
// any value from the log, `::stop-commands::` would switch the rest of the run's commands
// off, `::error::` would forge an annotation.
//
// What the worker prints is one of two things:
// - an annotation (`::debug::`, `::warning::`, `::error::`): one line, its data escaped as
//   GitHub documents for workflow command values and as @actions/toolkit's escapeData does
//   (`%` → `%25`, `\r` → `%0D`, `\n` → `%0A`; docs "Workflow commands for GitHub Actions");
//   the runner decodes it back into the annotation's text;
// - a plain line: printed as is when it is one line that cannot be read as a command;
//   otherwise between `::stop-commands::<token>` and `::<token>::` with a fresh random
//   token (docs, "Stopping and starting workflow commands"), so nothing in between runs.

import { randomBytes } from "node:crypto";

export type LogLevel = "debug" | "info" | "warn" | "error";

const COMMAND: Readonly<Record<Exclude<LogLevel, "info">, string>> = {
  debug: "::debug::",
  warn: "::warning::",
  error: "::error::",
};

/** A workflow command's data, escaped (toolkit's escapeData; the runner's _escapeDataMappings). */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Whether the runner could read `line` as a command (any of the ways ActionCommand parses). */
function readsAsCommand(line: string): boolean {
  // .NET's TrimStart() trims every Unicode white space, not only ASCII: so does \s here.
  return /^\s*::/u.test(line) || line.includes("##[");
}

/** The physical lines to print for one record of the worker's log. */
export function actionsLogLines(
  level: LogLevel,
  message: string,
  token: () => string = () => randomBytes(16).toString("hex"),
): string[] {
  if (level !== "info") return [`${COMMAND[level]}${escapeCommandData(message)}`];
  if (!/[\r\n]/.test(message) && !readsAsCommand(message)) return [message];
  const stop = token();
  return [`::stop-commands::${stop}`, ...message.split(/\r\n|\r|\n/), `::${stop}::`];
}
