// The protocol's named errors. Each carries the fields a caller needs to act on it.

import type { Action, State } from "./fsm.js";

export class InvalidTransitionError extends Error {
  override readonly name = "InvalidTransitionError";
  constructor(
    readonly from: State,
    readonly action: Action,
    readonly allowed: readonly Action[],
  ) {
    super(
      `cfa/protocol: ${action} is not an edge from ${from}` +
        (allowed.length > 0 ? ` (allowed: ${allowed.join(", ")})` : ` (${from} is terminal)`),
    );
  }
}

export class RecordError extends Error {
  override readonly name = "RecordError";
  constructor(
    message: string,
    readonly where: string,
    options?: { cause?: unknown },
  ) {
    super(`cfa/protocol: ${where}: ${message}`, options);
  }
}
