// Tokens and dollars the way a person reads them: 1.2k tokens, $0.0123. Pure.

import type { ModelUsage } from "../ports/model.js";

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatUsd(n: number): string {
  // Small jobs cost fractions of a cent per instance: keep four decimals below a dollar.
  return `$${n.toFixed(n < 1 ? 4 : 2)}`;
}

export function formatUsage(usage: ModelUsage): string {
  const cache =
    usage.cacheReadTokens + usage.cacheWriteTokens > 0
      ? ` (cache ${formatTokens(usage.cacheReadTokens)} read, ${formatTokens(usage.cacheWriteTokens)} written)`
      : "";
  return `${formatTokens(usage.inputTokens)} in / ${formatTokens(usage.outputTokens)} out tokens${cache}`;
}
