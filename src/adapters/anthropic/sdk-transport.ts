// What every provider's client (Anthropic, AnthropicBedrock, AnthropicVertex: one SDK core)
// is given alike: the SDK's own retries off (patience.ts retries, with the caller's budget),
// a per-attempt timeout stated so the SDK does not derive one from max_tokens, no
// OpenTelemetry, and the caller's base URL and fetch (proxies, a gateway, a local test server).

import type { Logger } from "../../ports/logger.js";
import { ModelError } from "./model-error.js";
import type { PatienceOptions } from "./patience.js";

/** Per attempt. Stated so the SDK does not derive one from max_tokens. */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** What every provider's model takes alike, besides its credentials and where it runs. */
export interface ProviderModelOptions extends PatienceOptions {
  /**
   * The service's URL; default the provider's own (https://api.anthropic.com,
   * https://bedrock-runtime.<region>.amazonaws.com, https://<region>-aiplatform.googleapis.com/v1).
   * ANTHROPIC_BASE_URL for a gateway; in tests, a local server.
   */
  baseURL?: string | undefined;
  /** Per attempt; default 10 minutes. */
  timeoutMs?: number;
  logger?: Logger;
  /** The fetch the SDK uses: for proxies and tests. */
  fetch?: typeof globalThis.fetch;
}

export function sdkTransport(options: ProviderModelOptions) {
  return {
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    openTelemetry: false as const,
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
  };
}

/** A cloud provider's model id: what the configuration maps `model` to, else `byDefault`. */
export function mappedModelId(
  model: string,
  models: Readonly<Record<string, string>>,
  byDefault: string,
): string {
  return Object.hasOwn(models, model) ? models[model]! : byDefault;
}

/** A cloud provider needs its region: a blank one is refused with the line saying where to set it. */
export function requireRegion(region: string, refusal: string): void {
  if (region.trim() === "") throw new ModelError(refusal, { kind: "client" });
}
