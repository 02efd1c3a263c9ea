// The worker's log, written for the Actions log viewer: warnings and errors become
// workflow annotations. Every line is redacted first (nothing the worker prints carries a
// secret: docs/contributing.md, "Conventions"), then goes through the one escaper
// (./actions-log-lines.ts), so no text it carries can run as a workflow command.

import type { Redact } from "../secrets/index.js";
import type { Logger } from "../ports/logger.js";
import { actionsLogLines, type LogLevel } from "./actions-log-lines.js";

export type Print = (line: string) => void;

/** Prints one record of the log through the escaper. */
export function printToActions(print: Print, level: LogLevel, text: string): void {
  for (const line of actionsLogLines(level, text)) print(line);
}

export function createActionsLogger(print: Print, redact: Redact): Logger {
  const line = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : "";
    printToActions(print, level, redact(`${message}${extra}`));
  };
  return {
    debug: (message, fields) => line("debug", message, fields),
    info: (message, fields) => line("info", message, fields),
    warn: (message, fields) => line("warn", message, fields),
    error: (message, fields) => line("error", message, fields),
  };
}
