// The worker's log, written for the Actions log viewer: warnings and errors become
// workflow annotations. Every line is redacted first: nothing the worker prints carries a
// secret (DESIGN.md "Rules that hold everywhere").

import type { Redact } from "../secrets/index.js";
import type { Logger } from "../ports/logger.js";

export type Print = (line: string) => void;

export function createActionsLogger(print: Print, redact: Redact): Logger {
  const line = (prefix: string, message: string, fields?: Record<string, unknown>) => {
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : "";
    // An annotation ends at the first newline; the rest of a long message stays readable.
    print(redact(`${prefix}${message}${extra}`));
  };
  return {
    debug: (message, fields) => line("::debug::", message, fields),
    info: (message, fields) => line("", message, fields),
    warn: (message, fields) => line("::warning::", message, fields),
    error: (message, fields) => line("::error::", message, fields),
  };
}
