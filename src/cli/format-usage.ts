// Tokens and dollars the way a person reads them: 1.2k tokens, $0.0123. Pure.

import type { ModelUsage } from "../ports/model.js";
import { formatTokens, tokenFigure } from "../comments/token-figure.js";

export { formatTokens };

export function formatUsd(n: number): string {
  // Small jobs cost fractions of a cent per instance: keep four decimals below a dollar.
  return `$${n.toFixed(n < 1 ? 4 : 2)}`;
}

/** The one token figure (src/comments/token-figure.ts): in counts cache reads and writes. */
export function formatUsage(usage: ModelUsage): string {
  return tokenFigure(usage);
}
