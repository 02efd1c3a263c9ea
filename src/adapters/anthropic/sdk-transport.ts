// What every provider's client (Anthropic, AnthropicBedrock, AnthropicVertex: one SDK core)
// is given alike: the SDK's own retries off (patience.ts retries, with the caller's budget),
// a per-attempt timeout stated so the SDK does not derive one from max_tokens, no
// OpenTelemetry, and the caller's base URL and fetch (proxies, a gateway, a local test server).

import { ModelError } from "./model-error.js";

/** Per attempt. Stated so the SDK does not derive one from max_tokens. */
export const DEFAULT_TIMEOUT_MS = 600_000;

export function sdkTransport(options: {
  baseURL?: string | undefined;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}) {
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
