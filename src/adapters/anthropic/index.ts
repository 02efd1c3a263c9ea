export {
  createAnthropicModel,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from "./anthropic-model.js";
export type { AnthropicModelOptions } from "./anthropic-model.js";
export { buildMessageParams } from "./build-request.js";
export { messageBreakpoints } from "./cache-breakpoints.js";
export { MODEL_ERROR_KINDS, ModelError, redactSecret } from "./model-error.js";
export type { ModelErrorKind } from "./model-error.js";
export {
  costOf,
  DEFAULT_MODELS,
  isDeprecatedModel,
  isKnownModel,
  KNOWN_MODELS,
  MODEL_STATUSES,
  MODEL_TABLE,
  MODEL_TIERS,
  modelInfo,
  UnknownModelError,
} from "./prices.js";
export type { KnownModel, ModelInfo, ModelStatus, ModelTier, Price } from "./prices.js";
