// How a configured model name becomes the model the API is asked for, and what its usage
// costs: the same for every entry point that wires the Anthropic adapter's tables.

// The price table's own module, not the adapter's index: that loads the Anthropic SDK, which
// a replay never calls: loading it would slow every replay's start-up.
import { costOf, DEFAULT_MODELS, isKnownModel } from "../adapters/anthropic/prices.js";
import { isModelTier } from "../config/index.js";
import type { ModelUsage } from "../ports/model.js";

export function resolveModel(tierOrModel: string): string {
  return isModelTier(tierOrModel) ? DEFAULT_MODELS[tierOrModel] : tierOrModel;
}

export function priceOf(model: string, usage: ModelUsage): number {
  // A model missing from the price table is a configuration the operator chose; its cost is
  // not guessed (and so cannot trip the cost cap).
  return isKnownModel(model) ? costOf(model, usage) : 0;
}
