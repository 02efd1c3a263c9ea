// A silent stand-in for Probot's pino logger that keeps what was logged, so tests stay
// quiet and can still assert on a refusal or an error the app logs. pino itself is only a
// transitive dependency, so the kit does not import it.

import type { Logger } from "probot";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogEntry {
  readonly level: LogLevel;
  readonly message: string;
  /** The merged child bindings and the object argument, if one was passed. */
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface CapturingLogger {
  readonly logger: Logger;
  readonly entries: LogEntry[];
}

function build(entries: LogEntry[], bindings: Readonly<Record<string, unknown>>): Logger {
  const log =
    (level: LogLevel) =>
    (...args: unknown[]): void => {
      const [first] = args;
      const object =
        typeof first === "object" && first !== null ? (first as Record<string, unknown>) : {};
      const message = args.find((arg): arg is string => typeof arg === "string") ?? "";
      entries.push({ level, message, fields: { ...bindings, ...object } });
    };
  const logger = {
    level: "silent",
    silent: () => undefined,
    child: (more: Record<string, unknown>) => build(entries, { ...bindings, ...more }),
    isLevelEnabled: () => true,
    bindings: () => bindings,
    // pino-http (Probot's Server logs each request with it) reads the level table.
    levels: {
      values: Object.fromEntries(LOG_LEVELS.map((level, i) => [level, (i + 1) * 10])),
      labels: Object.fromEntries(LOG_LEVELS.map((level, i) => [(i + 1) * 10, level])),
    },
    ...Object.fromEntries(LOG_LEVELS.map((level) => [level, log(level)])),
  };
  return logger as unknown as Logger;
}

export function createCapturingLogger(): CapturingLogger {
  const entries: LogEntry[] = [];
  return { logger: build(entries, {}), entries };
}
