// The API's usage block onto the port's: cache counts may be null (no caching happened),
// which the port reports as 0.

import type { Usage } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { ModelUsage } from "../../ports/model.js";

export function mapUsage(
  usage: Pick<
    Usage,
    "input_tokens" | "output_tokens" | "cache_read_input_tokens" | "cache_creation_input_tokens"
  >,
): ModelUsage {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
  };
}
