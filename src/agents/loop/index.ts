export { NOTES } from "./loop-notes.js";
export { openingMessage } from "./opening-message.js";
export { pendingAsk, pendingToolUses } from "./pending-tool-uses.js";
export { requestMessages } from "./request-messages.js";
export { runTurn } from "./run-turn.js";
export type { TurnResult } from "./run-turn.js";
export { toolResultBlock } from "./tool-result-block.js";
export {
  byteSize,
  CONTEXT_MARGIN,
  ContextMeter,
  ContextOverflowError,
  DEFAULT_LIMITS,
  inputLimit,
  restartMessage,
  viewStart,
} from "./context-budget.js";
export { modelCalls } from "./model-calls.js";
export type { ModelCalls } from "./model-calls.js";
export { isModelRefusal, ModelRefusalError } from "./model-refusal-error.js";
export { ModelSecretError } from "./model-secret-error.js";
export { OutputLimitError } from "./output-limit-error.js";
export { cacheLifetimeFor, outputPlan, ROLE_OUTPUT } from "./output-plan.js";
export type { OutputPlan, OutputSettings } from "./output-plan.js";
export { stopVerdict } from "./stop-verdict.js";
export type { StopVerdict } from "./stop-verdict.js";
