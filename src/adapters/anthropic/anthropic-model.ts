// The Model port on the Anthropic Messages API (@anthropic-ai/sdk, non-streaming, tools).
//
// Retries are the SDK's own, with maxRetries set explicitly. Checked in the SDK source
// (client.ts shouldRetry/retryRequest, 1.12.0): a connection error or timeout, 408, 409,
// 429 and every status >= 500 (529 overloaded included) are retried with exponential backoff
// from 0.5 s up to 8 s with jitter, honouring `retry-after-ms` and `retry-after`; a server's
// `x-should-retry: true|false` overrides the status rule; every other 4xx fails at once.
// What remains after the retries becomes a ModelError, with the API key redacted.

import Anthropic from "@anthropic-ai/sdk";
import type { Model, ModelRequest, ModelResponse } from "../../ports/model.js";
import type { Logger } from "../../ports/logger.js";
import { noopLogger } from "../../ports/logger.js";
import { buildMessageParams } from "./build-request.js";
import { mapResponse } from "./map-response.js";
import { ModelError, redactSecret } from "./model-error.js";
import { isKnownModel, modelInfo } from "./prices.js";
import { toModelError } from "./to-model-error.js";

export const DEFAULT_MAX_RETRIES = 4;
/** The SDK's own per-attempt default, stated so the SDK does not derive one from max_tokens
 * (it refuses non-streaming requests it expects to run past 10 minutes). */
export const DEFAULT_TIMEOUT_MS = 600_000;
export const DEFAULT_BASE_URL = "https://api.anthropic.com";

export interface AnthropicModelOptions {
  apiKey: string;
  /** Defaults to https://api.anthropic.com (never read from the environment). */
  baseURL?: string;
  /** Retries after the first attempt; default 4. */
  maxRetries?: number;
  /** Per attempt; default 10 minutes. */
  timeoutMs?: number;
  logger?: Logger;
  /** The fetch the SDK uses: for proxies and tests. */
  fetch?: typeof globalThis.fetch;
}

export function createAnthropicModel(options: AnthropicModelOptions): Model {
  const apiKey = options.apiKey;
  if (typeof apiKey !== "string" || apiKey.trim().length === 0) {
    throw new ModelError(
      "cfa/anthropic: no API key: set ANTHROPIC_API_KEY (a repository secret) and pass it in",
      { kind: "client" },
    );
  }
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const logger = options.logger ?? noopLogger;
  const redact = (text: string): string => redactSecret(text, apiKey);
  const sdkLog =
    (level: keyof Logger) =>
    (message: string): void =>
      logger[level](redact(`anthropic sdk: ${message}`));

  const client = new Anthropic({
    apiKey,
    // A credential passed in code keeps the SDK from reading ANTHROPIC_* credentials; the
    // base URL is passed too so ANTHROPIC_BASE_URL cannot redirect requests either.
    baseURL: options.baseURL ?? DEFAULT_BASE_URL,
    maxRetries,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    openTelemetry: false,
    // Only the message: the SDK's extra arguments can hold response headers and bodies.
    logger: {
      debug: sdkLog("debug"),
      info: sdkLog("info"),
      warn: sdkLog("warn"),
      error: sdkLog("error"),
    },
    logLevel: "info",
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
  });

  const warned = new Set<string>();

  return {
    async complete(request: ModelRequest, callOptions?: { signal?: AbortSignal }) {
      warnIfDeprecated(request.model);
      const context = { apiKey, model: request.model, instance: request.instance, maxRetries };
      const params = buildMessageParams(request);
      let message: Anthropic.Message;
      try {
        message = await client.messages.create(
          params,
          callOptions?.signal !== undefined ? { signal: callOptions.signal } : undefined,
        );
      } catch (error) {
        throw toModelError(error, context);
      }
      const mapped = mapResponse(message);
      if ("problem" in mapped) {
        throw new ModelError(
          `cfa/anthropic: ${request.model} answered ${request.instance} with ${mapped.problem} ` +
            `(message ${message.id})`,
          { kind: "response" },
        );
      }
      logger.debug("model response", {
        instance: request.instance,
        model: mapped.model,
        stopReason: mapped.stopReason,
        usage: mapped.usage,
      });
      return mapped satisfies ModelResponse;
    },
  };

  function warnIfDeprecated(model: string): void {
    if (warned.has(model) || !isKnownModel(model)) return;
    const info = modelInfo(model);
    if (info.status !== "deprecated") return;
    warned.add(model);
    logger.warn(
      `cfa/anthropic: ${model} is deprecated (end of life ${info.endOfLife ?? "announced"}); ` +
        `choose a current model in .github/cfa.yml`,
      { model },
    );
  }
}
