// The API's usage block onto the port's: cache counts may be null (no caching happened),
// which the port reports as 0. The 1-hour part of the cache writes is kept apart because it
// is billed at its own rate (https://platform.claude.com/docs/en/build-with-claude/prompt-caching,
// "1h Cache Writes"); the SDK reports it as `cache_creation.ephemeral_1h_input_tokens`.

import type { Usage } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { ModelUsage } from "../../ports/model.js";

export function mapUsage(
  usage: Pick<
    Usage,
    "input_tokens" | "output_tokens" | "cache_read_input_tokens" | "cache_creation_input_tokens"
  > & { cache_creation?: { ephemeral_1h_input_tokens?: number | null } | null },
): ModelUsage {
  const oneHour = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
    ...(oneHour > 0 ? { cacheWrite1hTokens: oneHour } : {}),
  };
}
