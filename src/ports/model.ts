// The Model port: one request/response round of a tool-using chat model. The shapes mirror
// the Anthropic Messages API closely enough to map one-to-one, without importing it, so the
// agents layer stays provider-agnostic and the scripted adapter can play recordings.
//
// Assistant content is kept AS RECEIVED: every block is the API's own object, with every field it
// carried (a text block's `citations`, a tool call's `caller`, …) in the order it carried them, and
// a tool call's `input` with its keys in the order the model wrote them. The API requires each
// assistant turn back exactly as it returned it: a changed earlier turn invalidates every later
// thinking block (a 400 where the prefix check is enforced) and moves the cache prefix ("Send each
// assistant turn back exactly as the API
// returned it", https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks).
// Compare blocks through canonicalValue() where needed; never rewrite them on the wire.

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
/**
 * A block of a type the port does not model (a server tool's block, a type newer than this
 * code), kept whole so the turn goes back to the API exactly as it came. `block` is the API's
 * object, `type` included.
 */
export interface OpaqueBlock {
  type: "opaque";
  block: { type: string } & Record<string, unknown>;
}
export type AssistantBlock =
  TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock | OpaqueBlock;
export type UserBlock = TextBlock | ToolResultBlock;

export type Message =
  | {
      role: "user";
      content: UserBlock[];
      /**
       * The conversation starts over here (so the context stays within the model's window):
       * requests carry this message and what follows it, never what came before. The transcript
       * keeps everything.
       */
      restart?: true;
    }
  | { role: "assistant"; content: AssistantBlock[] };

/** A tool of ours: its name, what it does and the JSON Schema of its input. */
export interface CustomToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  input_schema: Record<string, unknown>;
}

/**
 * An Anthropic-defined client tool: its schema is built into the model, the request names
 * only its type (https://platform.claude.com/docs/en/agents-and-tools/tool-use/bash-tool,
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/text-editor-tool). The API
 * adds its definition's tokens itself: 245 input tokens for the bash tool, 700 for the text
 * editor (the pages' pricing sections).
 */
export type ClientToolSpec =
  | { type: "bash_20250124"; name: "bash" }
  | {
      type: "text_editor_20250728";
      name: "str_replace_based_edit_tool";
      /** Where the tool cuts a file's view (the tool's `max_characters`). */
      max_characters?: number;
    };

export type ToolSpec = CustomToolSpec | ClientToolSpec;

/** Input tokens the API adds for each Anthropic-defined tool a request names (see above). */
export const CLIENT_TOOL_TOKENS: Readonly<Record<ClientToolSpec["type"], number>> = {
  bash_20250124: 245,
  text_editor_20250728: 700,
};

export function isClientToolSpec(spec: ToolSpec): spec is ClientToolSpec {
  return "type" in spec;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  /** Every cache write, whatever its lifetime (`cache_creation_input_tokens`). */
  cacheWriteTokens: number;
  /**
   * The part of `cacheWriteTokens` written with the 1-hour lifetime, which is billed at its own
   * rate (`usage.cache_creation.ephemeral_1h_input_tokens`). Absent means none.
   */
  cacheWrite1hTokens?: number;
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

/** How hard the model thinks (the API's `output_config.effort`). */
export const EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

/** How long the cached prefix of a request should live: "1h" where a person may keep it waiting. */
export const CACHE_LIFETIMES = ["5m", "1h"] as const;
export type CacheLifetime = (typeof CACHE_LIFETIMES)[number];

export interface ModelRequest {
  /** The `agent@thread` key of the instance asking: recordings are kept per instance. */
  instance: string;
  model: string;
  /**
   * The role's system prompt: fixed for the instance's whole life, since a changed prefix
   * voids the cache and the earlier thinking blocks.
   */
  system: string;
  /**
   * The repository's instructions (AGENTS.md and the like), the same text for every role of
   * the job: the first system block. Absent: none.
   */
  instructions?: string;
  /**
   * What every instance of the role shares in the job (its prompt, its workspace, the job's
   * facts): the system block after the instructions and before `system`, cached on its own so
   * a lead's PLAN and EXECUTE instances share it. Absent: `system` holds everything.
   */
  rolePrompt?: string;
  /**
   * How many of the first `tools` another role's requests open with too (the same bytes):
   * the tools' cache marker closes them, so that prefix is shared across roles. Absent: the
   * adapter's own choice.
   */
  sharedTools?: number;
  /** Fixed for the instance's whole life, like `system`. */
  tools: ToolSpec[];
  messages: Message[];
  /** The output budget, thinking included (thinking tokens count toward it). */
  maxTokens: number;
  /** Absent: the model's default. */
  effort?: Effort;
  /** Absent: "5m", the API's default. */
  cacheLifetime?: CacheLifetime;
  /**
   * The lifetime of the markers on what the job's instances share — the tools, the
   * instructions, the role's block — which come before everything else, so a longer one here
   * keeps the API's rule that 1-hour entries precede 5-minute ones. Absent: `cacheLifetime`.
   */
  sharedCacheLifetime?: CacheLifetime;
}

export interface ModelResponse {
  /** The blocks exactly as the API returned them (see the note at the top). */
  content: AssistantBlock[];
  stopReason: StopReason;
  /** This response's usage alone: price it on its own (long-context bands are per request). */
  usage: ModelUsage;
  /** The model that answered, as the API names it. */
  model: string;
  /** The API's id of this response (`msg_…`), when it gives one. */
  id?: string;
  /** With stopReason "refusal": what the API said about it (`stop_details`). */
  refusal?: { category: string | null; explanation: string | null };
}

/** What a model takes: the loop keeps every request inside these. */
export interface ModelLimits {
  /** Input and output together, in tokens. */
  contextWindow: number;
  /** The largest `max_tokens` it accepts. */
  maxOutput: number;
}

export interface Model {
  complete(request: ModelRequest, options?: { signal?: AbortSignal }): Promise<ModelResponse>;
  /** The limits of `model`, when the adapter knows them (the loop assumes 200K / 64K otherwise). */
  limits?(model: string): ModelLimits;
}

/**
 * The model stayed unreachable (outage, overload, rate limit, network) for longer than the
 * adapter's patience, after backing off and retrying. An infrastructure fault, never a
 * protocol failure (the outside world is unreliable, not wrong): the
 * engine ends the wake with the job live and tries again later; no retry budget is spent.
 */
export const MODEL_WAIT_REASONS = ["unavailable", "credentials"] as const;
export type ModelWaitReason = (typeof MODEL_WAIT_REASONS)[number];

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
      /**
       * Why: the service stayed away ("unavailable", the default), or it refused the
       * installation's credentials ("credentials": 401/402/403, or none found — configuration
       * to fix, not a failure; `last` then says what to fix).
       */
      reason?: ModelWaitReason;
    },
  ) {
    super(message);
  }
}

export function isModelUnavailable(error: unknown): error is ModelUnavailableError {
  return error instanceof ModelUnavailableError;
}
