// The bus's named errors. Rule refusals of payloads are values (Rejection), not errors;
// these are for callers that fire something that cannot fire, or logs that cannot be read.

import type { RuleName } from "./redex.js";

/** A redex was fired that is not enabled in the soup now. */
export class BusRuleError extends Error {
  override readonly name = "BusRuleError";
  constructor(
    readonly rule: RuleName,
    readonly detail: string,
  ) {
    super(
      `cfa/bus: [${rule}] is not enabled: ${detail}. Fire only redexes taken from enabled() ` +
        `on this soup since its last change.`,
    );
  }
}

/** A convenience call was made with arguments the soup cannot accept. */
export class BusUsageError extends Error {
  override readonly name = "BusUsageError";
  constructor(message: string) {
    super(`cfa/bus: ${message}`);
  }
}

/** A log line that is malformed or inconsistent with the lines before it. */
export class BusLogError extends Error {
  override readonly name = "BusLogError";
  constructor(
    /** 1-based line number in the log. */
    readonly line: number,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `cfa/bus: bus log line ${line}: ${detail}. The log is append-only: restore it from ` +
        `git history rather than editing it.`,
      options,
    );
  }
}
