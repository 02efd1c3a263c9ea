// The Model port: one request/response round of a tool-using chat model. The shapes mirror
// the Anthropic Messages API closely enough to map one-to-one, without importing it, so the
// agents layer stays provider-agnostic and the scripted adapter can play recordings.

export interface TextBlock {
  type: "text";
  text: string;
}
export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}
/**
 * A model's thinking, opaque to cfa-bot: kept in the transcript and sent back verbatim, as
 * the API requires when a tool-use cycle continues — which here can be a later process (an
 * answer to ask_question arrives in a new worker run).
 */
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}
export interface RedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}
export type AssistantBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;
export type UserBlock = TextBlock | ToolResultBlock;

export type Message =
  { role: "user"; content: UserBlock[] } | { role: "assistant"; content: AssistantBlock[] };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  input_schema: Record<string, unknown>;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export const STOP_REASONS = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "refusal",
  "pause_turn",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export interface ModelRequest {
  /** The `agent@thread` key of the instance asking: recordings are kept per instance. */
  instance: string;
  model: string;
  /** The role's system prompt; stable across an instance's turns so it caches. */
  system: string;
  tools: ToolSpec[];
  messages: Message[];
  maxTokens: number;
}

export interface ModelResponse {
  content: AssistantBlock[];
  stopReason: StopReason;
  usage: ModelUsage;
  model: string;
}

export interface Model {
  complete(request: ModelRequest, options?: { signal?: AbortSignal }): Promise<ModelResponse>;
}

/**
 * The model stayed unreachable (outage, overload, rate limit, network) for longer than the
 * adapter's patience, after backing off and retrying. An infrastructure fault, never a
 * protocol failure (issue 9; DESIGN.md "The outside world is unreliable, not wrong"): the
 * engine ends the wake with the job live and tries again later; no retry budget is spent.
 */
export class ModelUnavailableError extends Error {
  override readonly name = "ModelUnavailableError";
  constructor(
    message: string,
    readonly fields: {
      /** When the first failed attempt of this call was made (ISO 8601). */
      since: string;
      /** How many attempts were made. */
      attempts: number;
      /** The last attempt's error, redacted: what the status comment can say. */
      last: string;
    },
  ) {
    super(message);
  }
}

export function isModelUnavailable(error: unknown): error is ModelUnavailableError {
  return error instanceof ModelUnavailableError;
}
