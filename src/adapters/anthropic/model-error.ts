// The one error the Anthropic adapter throws once the SDK has given up (its own retries
// included). It carries what a caller acts on (status, request id, whether a later retry may
// succeed) and never the API key: the message and the `cause` are rebuilt from redacted
// text, and the SDK's error object (with its response headers) is not kept.

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

// Anthropic keys start with sk-ant-; the pattern also catches a key other than ours that an
// upstream message might echo.
const KEY_PATTERN = /sk-ant-[A-Za-z0-9_-]+/g;

/** Replaces the key itself, and anything shaped like an Anthropic key, with [redacted]. */
export function redactSecret(text: string, secret: string): string {
  return redactSecrets(text, [secret]);
}

/** Replaces every given secret (blank ones ignored) and anything shaped like an Anthropic key. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out.replace(KEY_PATTERN, "[redacted]");
}

/** A stand-in `cause`: the original's name and redacted message, nothing else. */
export function redactedCause(error: unknown, redact: (text: string) => string): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const copy = new Error(redact(original.message));
  copy.name = original.name;
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
