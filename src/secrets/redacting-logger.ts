// A Logger whose every line, fields included, passes the redactor first.

import type { Logger } from "../ports/logger.js";
import type { Redactor } from "./redactor.js";

export function redactingLogger(inner: Logger, redactor: Redactor): Logger {
  const clean = (message: string, fields?: Record<string, unknown>) =>
    [
      redactor.redact(message, "a log line"),
      fields === undefined ? undefined : (redactValue(fields, redactor) as Record<string, unknown>),
    ] as const;
  return {
    debug: (message, fields) => inner.debug(...clean(message, fields)),
    info: (message, fields) => inner.info(...clean(message, fields)),
    warn: (message, fields) => inner.warn(...clean(message, fields)),
    error: (message, fields) => inner.error(...clean(message, fields)),
  };
}

/** Strings anywhere in plain data redacted; an Error becomes its redacted name and message. */
function redactValue(value: unknown, redactor: Redactor, depth = 0): unknown {
  if (typeof value === "string") return redactor.redact(value, "a log line");
  if (value instanceof Error) {
    return { name: value.name, message: redactor.redact(value.message, "a log line") };
  }
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactor, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, redactValue(item, redactor, depth + 1)]),
  );
}
