// Turns whatever a call threw, once patience.ts is done with it, into the error the engine
// acts on: ModelUnavailableError passes through untouched (the agreed seam: an infrastructure
// fault outlasted the adapter's patience, the job waits), anything else becomes a ModelError
// that says what happened and what to do, with every credential redacted.

import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk";
import { ModelUnavailableError } from "../../ports/model.js";
import { ModelError, redactedCause } from "./model-error.js";
import { credentialsFault, credentialsFix } from "./credentials-fault.js";

export interface ErrorContext {
  redact: (text: string) => string;
  model: string;
  instance: string;
  /** "the Anthropic API", "Amazon Bedrock", … */
  provider: string;
  /** What to check when the service cannot be reached. */
  reachHint: string;
}

export function toModelError(
  error: unknown,
  context: ErrorContext,
): ModelError | ModelUnavailableError {
  if (error instanceof ModelError || error instanceof ModelUnavailableError) return error;
  const { redact, model, instance, provider, reachHint } = context;
  const cause = redactedCause(error, redact);
  const head = `cfa/model: ${model} request for ${instance}`;

  // Credentials are configuration: the job waits, live, for a person to fix them, like an
  // outage, never a state-level failure.
  const refused = credentialsFault(error);
  if (refused !== null) {
    const fix = credentialsFix(provider, refused.status);
    const said =
      error instanceof APIError ? redact(error.apiMessage ?? error.message) : redact(cause.message);
    return new ModelUnavailableError(`${head}: ${fix} (${provider} said: ${said})`, {
      since: new Date().toISOString(),
      attempts: 1,
      last: `${fix} (${provider} said: ${said.slice(0, 200)})`,
      reason: "credentials",
    });
  }
  // Abort is an APIError subclass: test it before the status checks.
  if (error instanceof APIUserAbortError || isAbortError(error)) {
    return new ModelError(`${head} was aborted by the caller`, { kind: "aborted", cause });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(`${head} timed out`, { kind: "timeout", retryable: true, cause });
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(
      `${head} could not reach ${provider}: ${redact(describeConnection(error))}; check ${reachHint}`,
      { kind: "connection", retryable: true, cause },
    );
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const status = error.status;
    const requestId = error.requestID ?? undefined;
    const detail = redact(error.apiMessage ?? error.message);
    const type = error.type !== null ? ` ${error.type}` : "";
    const id = requestId !== undefined ? ` (request ${requestId})` : "";
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return new ModelError(
      `${head} failed with ${status}${type}: ${detail}${id}. ${hintFor(status, provider)}`,
      { kind: "api", status, requestId, retryable, cause },
    );
  }
  return new ModelError(`${head} was refused before sending: ${redact(cause.message)}`, {
    kind: "client",
    cause,
  });
}

function describeConnection(error: APIConnectionError): string {
  const inner = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${inner}`;
}

function hintFor(status: number, provider: string): string {
  if (status === 401)
    return `Check the credentials for ${provider} (for the Anthropic API, ANTHROPIC_API_KEY).`;
  if (status === 403)
    return "The credentials are not allowed this model or feature; check their permissions.";
  if (status === 404)
    return "Check the model name against the models this provider serves (.github/cfa.yml).";
  if (status === 413) return "The request is too large for the API.";
  return "The API rejected the request and it is not retried; fix what the message names.";
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}
