// One token figure wherever a person reads one: the status comment, `cfa
// inspect`, the replay's report. "In" is everything the model read — the request's own
// input plus what it read from and wrote to the prompt cache: the Messages API counts these
// apart ("Total input tokens in a request is the summation of `input_tokens`,
// `cache_creation_input_tokens`, and `cache_read_input_tokens`", the Usage type of
// @anthropic-ai/sdk). "Out" is what it wrote. The cache's share is said beside, never added
// to either twice. Pure.

import type { ModelUsage } from "../ports/model.js";

/** 999, 1.2k, 184k, 2.35M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** Every token the model read: the input, cache reads and cache writes. */
export function tokensIn(usage: ModelUsage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** "184k in / 3.2k out tokens (152k of them from the cache, 8.1k written to it)". */
export function tokenFigure(usage: ModelUsage): string {
  const cache =
    usage.cacheReadTokens + usage.cacheWriteTokens > 0
      ? ` (in: ${formatTokens(usage.cacheReadTokens)} read from the cache, ${formatTokens(usage.cacheWriteTokens)} written to it)`
      : "";
  return `${formatTokens(tokensIn(usage))} in / ${formatTokens(usage.outputTokens)} out tokens${cache}`;
}
