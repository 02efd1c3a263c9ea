// Turns whatever the SDK threw, after its own retries, into a ModelError with a message that
// says what happened and what to do, with the API key redacted everywhere.

import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk";
import { ModelError, redactSecret, redactedCause } from "./model-error.js";

export interface ErrorContext {
  apiKey: string;
  model: string;
  instance: string;
  maxRetries: number;
}

export function toModelError(error: unknown, context: ErrorContext): ModelError {
  if (error instanceof ModelError) return error;
  const { apiKey, model, instance, maxRetries } = context;
  const cause = redactedCause(error, apiKey);
  const head = `cfa/anthropic: ${model} request for ${instance}`;
  const redact = (text: string): string => redactSecret(text, apiKey);

  // Abort is an APIError subclass: test it before the status checks.
  if (error instanceof APIUserAbortError || isAbortError(error)) {
    return new ModelError(`${head} was aborted by the caller`, { kind: "aborted", cause });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(
      `${head} timed out (after ${maxRetries} retries): raise timeoutMs, or lower maxTokens so ` +
        `the answer fits the time`,
      { kind: "timeout", retryable: true, cause },
    );
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(
      `${head} could not reach the API (after ${maxRetries} retries): ${redact(error.message)}; ` +
        `check the network and baseURL`,
      { kind: "connection", retryable: true, cause },
    );
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const status = error.status;
    const requestId = error.requestID ?? undefined;
    const detail = redact(error.apiMessage ?? error.message);
    const type = error.type !== null ? ` ${error.type}` : "";
    const id = requestId !== undefined ? ` (request ${requestId})` : "";
    const retryable = isRetryableStatus(status);
    return new ModelError(
      `${head} failed with ${status}${type}: ${detail}${id}. ${hintFor(status, maxRetries)}`,
      { kind: "api", status, requestId, retryable, cause },
    );
  }
  return new ModelError(`${head} was refused by the SDK before sending: ${redact(cause.message)}`, {
    kind: "client",
    cause,
  });
}

// The statuses the SDK itself retries (408, 409, 429, 5xx including 529 overloaded).
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function hintFor(status: number, maxRetries: number): string {
  if (status === 401) return "Check that ANTHROPIC_API_KEY holds a valid key.";
  if (status === 403) return "The key is not allowed this model or feature; check its workspace.";
  if (status === 404) return "Check the model name against the models the key can use.";
  if (status === 429) {
    return `Still rate limited after ${maxRetries} retries; lower concurrency or try again later.`;
  }
  if (status === 529) return `Still overloaded after ${maxRetries} retries; try again later.`;
  if (status >= 500) return `The API kept failing after ${maxRetries} retries; try again later.`;
  return "The API rejected the request and it is not retried; fix what the message names.";
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}
