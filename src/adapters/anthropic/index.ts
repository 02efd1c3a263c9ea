export { createAnthropicModel, DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS } from "./anthropic-model.js";
export type { AnthropicModelOptions } from "./anthropic-model.js";
export { buildMessageParams } from "./build-request.js";
export type { MessageBody } from "./build-request.js";
export { messageBreakpoints } from "./cache-breakpoints.js";
export { createMessagesModel, MAX_NONSTREAMING_TOKENS } from "./messages-model.js";
export type { MessagesClient, MessagesModelOptions } from "./messages-model.js";
export { MODEL_ERROR_KINDS, ModelError, redactSecret, redactSecrets } from "./model-error.js";
export type { ModelErrorKind } from "./model-error.js";
export {
  backoffMs,
  DEFAULT_PATIENCE_MS,
  sdkFault,
  serverWaitMs,
  withPatience,
} from "./patience.js";
export type { Fault, PatienceOptions } from "./patience.js";
export {
  contextWindowOf,
  costOf,
  DEFAULT_MODELS,
  isDeprecatedModel,
  isKnownModel,
  KNOWN_MODELS,
  maxOutputOf,
  MODEL_STATUSES,
  MODEL_TABLE,
  MODEL_TIERS,
  modelInfo,
  oneHourWrite,
  UnknownModelError,
} from "./prices.js";
export type { KnownModel, ModelInfo, ModelStatus, ModelTier, Price } from "./prices.js";
