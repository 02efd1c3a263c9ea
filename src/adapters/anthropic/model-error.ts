// The one error the Anthropic adapter throws once the SDK has given up (its own retries
// included). It carries what a caller acts on (status, request id, whether a later retry may
// succeed) and never the API key: the message and the `cause` are rebuilt from redacted
// text, and the SDK's error object (with its response headers) is not kept.

import { processRedactor } from "../../secrets/index.js";

export const MODEL_ERROR_KINDS = [
  /** The API answered with an error status. */
  "api",
  /** No response: DNS, TCP, TLS, reset. */
  "connection",
  "timeout",
  /** The caller's AbortSignal fired. */
  "aborted",
  /** The API answered 200 with something this adapter cannot map onto the Model port. */
  "response",
  /** The SDK refused the request before sending it. */
  "client",
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

export class ModelError extends Error {
  override readonly name = "ModelError";
  readonly kind: ModelErrorKind;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  /** True when the same request may succeed later (rate limits, overload, 5xx, network). */
  readonly retryable: boolean;

  constructor(
    message: string,
    fields: {
      kind: ModelErrorKind;
      status?: number | undefined;
      requestId?: string | undefined;
      retryable?: boolean;
      cause?: Error;
    },
  ) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.kind = fields.kind;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.retryable = fields.retryable ?? false;
  }
}

/**
 * Replaces the key itself, anything shaped like a key or token (src/secrets: an upstream
 * message may echo a key other than ours), and every secret the process knows, with
 * [redacted].
 */
export function redactSecret(text: string, secret: string): string {
  return redactSecrets(text, [secret]);
}

/**
 * Replaces every given secret (blank ones ignored), every secret the process knows and
 * anything shaped like a key or token (src/secrets) with [redacted].
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const redactor = processRedactor();
  for (const secret of secrets) redactor.add(secret);
  return redactor.redact(text, "a model error");
}

/** A stand-in `cause`: the original's name and redacted message, nothing else. */
export function redactedCause(error: unknown, redact: (text: string) => string): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const copy = new Error(redact(original.message));
  copy.name = original.name;
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
