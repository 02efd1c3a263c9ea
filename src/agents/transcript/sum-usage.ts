// Usage added up over the responses of a turn (or of a job): what a turn-end line records
// and what the status comment reports.

import type { ModelUsage } from "../../ports/model.js";

export const ZERO_USAGE: Readonly<ModelUsage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

export function sumUsage(usages: Iterable<ModelUsage>): ModelUsage {
  const total: ModelUsage = { ...ZERO_USAGE };
  let oneHour = 0;
  for (const usage of usages) {
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.cacheReadTokens += usage.cacheReadTokens;
    total.cacheWriteTokens += usage.cacheWriteTokens;
    oneHour += usage.cacheWrite1hTokens ?? 0;
  }
  // Present only when some write was 1-hour, so sums of older usage keep their shape.
  if (oneHour > 0) total.cacheWrite1hTokens = oneHour;
  return total;
}
