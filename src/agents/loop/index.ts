export { NOTES } from "./loop-notes.js";
export { openingMessage } from "./opening-message.js";
export { pendingAsk, pendingToolUses } from "./pending-tool-uses.js";
export { requestMessages } from "./request-messages.js";
export { runTurn } from "./run-turn.js";
export type { TurnResult } from "./run-turn.js";
export { toolResultBlock } from "./tool-result-block.js";
