// The Model port on the Anthropic Messages API (@anthropic-ai/sdk), directly or through an LLM
// gateway. The base URL follows the SDK's convention: ANTHROPIC_BASE_URL, read by the entry
// point and passed in here (the SDK itself reads that variable when no `baseURL` is given,
// src/client.ts 1.12.0), so a gateway or a local test server sees exactly the requests the
// API would. Retries are patience.ts's (the SDK's own are off); everything else is
// messages-model.ts, shared with Bedrock and Vertex.

import Anthropic from "@anthropic-ai/sdk";
import { noopLogger, type Logger } from "../../ports/logger.js";
import type { Model } from "../../ports/model.js";
import { createMessagesModel } from "./messages-model.js";
import { ModelError, redactSecrets } from "./model-error.js";
import { sdkTransport, type ProviderModelOptions } from "./sdk-transport.js";

export { DEFAULT_TIMEOUT_MS } from "./sdk-transport.js";

export const DEFAULT_BASE_URL = "https://api.anthropic.com";

export interface AnthropicModelOptions extends ProviderModelOptions {
  /** An Anthropic API key (`x-api-key`), or… */
  apiKey?: string | undefined;
  /** …a bearer token (`Authorization: Bearer`), as some gateways want (ANTHROPIC_AUTH_TOKEN). */
  authToken?: string | undefined;
}

export function createAnthropicModel(options: AnthropicModelOptions): Model {
  const apiKey = options.apiKey?.trim() ?? "";
  const authToken = options.authToken?.trim() ?? "";
  if (apiKey === "" && authToken === "") {
    throw new ModelError(
      "cfa/anthropic: no API key: set ANTHROPIC_API_KEY (a repository secret) and pass it in " +
        "(or ANTHROPIC_AUTH_TOKEN for a gateway that takes a bearer token)",
      { kind: "client" },
    );
  }
  const logger = options.logger ?? noopLogger;
  const redact = (text: string): string => redactSecrets(text, [apiKey, authToken]);
  const sdkLog =
    (level: keyof Logger) =>
    (message: string): void =>
      logger[level](redact(`anthropic sdk: ${message}`));

  const client = new Anthropic({
    // A credential passed in code keeps the SDK from reading any other from the environment.
    ...(apiKey !== "" ? { apiKey } : { authToken }),
    ...sdkTransport({ ...options, baseURL: options.baseURL ?? DEFAULT_BASE_URL }),
    // Only the message: the SDK's extra arguments can hold response headers and bodies.
    logger: {
      debug: sdkLog("debug"),
      info: sdkLog("info"),
      warn: sdkLog("warn"),
      error: sdkLog("error"),
    },
    logLevel: "info",
  });

  const gateway = options.baseURL !== undefined && options.baseURL !== DEFAULT_BASE_URL;
  return createMessagesModel({
    ...options,
    client,
    provider: gateway ? `the Anthropic API at ${options.baseURL}` : "the Anthropic API",
    redact,
    reachHint: "the network and ANTHROPIC_BASE_URL",
    logger,
  });
}
