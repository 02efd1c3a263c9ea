// The Model port over any client with Anthropic's Messages surface: the Anthropic API itself,
// an LLM gateway (the same client with another base URL), Amazon Bedrock and Google Vertex AI
// (Anthropic's own clients for them, @anthropic-ai/bedrock-sdk and @anthropic-ai/vertex-sdk,
// share the SDK's core and its `messages` resource). Per call: build the body (build-request),
// send it — streamed when the SDK requires streaming for the output budget — patiently through
// infrastructure faults (patience.ts), and map the answer (map-response).

import type { Message as ApiMessage } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { Logger } from "../../ports/logger.js";
import { noopLogger } from "../../ports/logger.js";
import type { Model, ModelRequest, ModelResponse } from "../../ports/model.js";
import { buildMessageParams, type MessageBody } from "./build-request.js";
import { mapResponse } from "./map-response.js";
import { ModelError } from "./model-error.js";
import { sdkFault, withPatience, type PatienceOptions } from "./patience.js";
import { contextWindowOf, isKnownModel, maxOutputOf, modelInfo } from "./prices.js";
import { toModelError } from "./to-model-error.js";

/**
 * The largest output budget the SDK sends without streaming. @anthropic-ai/sdk 1.12.0
 * (src/client.ts calculateNonstreamingTimeout) refuses a non-streaming request whose expected
 * time, 60 min × max_tokens / 128,000, passes 10 minutes: "Streaming is required for
 * operations that may take longer than 10 minutes"
 * (https://platform.claude.com/docs/en/cli-sdks-libraries/sdks/typescript#long-requests).
 * Above it this adapter streams and gathers the final message; at or below it, one JSON answer.
 */
export const MAX_NONSTREAMING_TOKENS = Math.floor((10 * 128_000) / 60);

/** What this adapter needs of a client: Anthropic, AnthropicBedrock and AnthropicVertex all have it. */
export interface MessagesClient {
  messages: {
    create(
      body: MessageBody & { stream?: false },
      options?: { signal?: AbortSignal },
    ): PromiseLike<ApiMessage>;
    stream(
      body: MessageBody,
      options?: { signal?: AbortSignal },
    ): { finalMessage(): Promise<ApiMessage> };
  };
}

export interface MessagesModelOptions extends PatienceOptions {
  client: MessagesClient;
  /** Names the provider in messages: "the Anthropic API", "Amazon Bedrock", … */
  provider: string;
  /** Removes every credential from a text before it reaches an error or a log. */
  redact: (text: string) => string;
  /** What to check when the service cannot be reached ("the network and ANTHROPIC_BASE_URL"). */
  reachHint: string;
  /** Maps the Anthropic model id of a request to the id this provider knows it by. */
  providerModel?: (model: string) => string;
  logger?: Logger;
}

export function createMessagesModel(options: MessagesModelOptions): Model {
  const { client, redact, provider } = options;
  const logger = options.logger ?? noopLogger;
  const providerModel = options.providerModel ?? ((model: string) => model);
  const warned = new Set<string>();

  return {
    async complete(request: ModelRequest, callOptions?: { signal?: AbortSignal }) {
      warnIfDeprecated(request.model);
      const signal = callOptions?.signal;
      const body: MessageBody = {
        ...buildMessageParams(request),
        model: providerModel(request.model),
      };
      const context = {
        redact,
        model: request.model,
        instance: request.instance,
        provider,
        reachHint: options.reachHint,
      };
      const send = (): Promise<ApiMessage> => {
        const sendOptions = signal === undefined ? undefined : { signal };
        return body.max_tokens > MAX_NONSTREAMING_TOKENS
          ? client.messages.stream(body, sendOptions).finalMessage()
          : Promise.resolve(client.messages.create(body, sendOptions));
      };
      let message: ApiMessage;
      try {
        message = await withPatience(send, (error) => sdkFault(error, summarise(error, redact)), {
          ...options,
          ...(signal === undefined ? {} : { signal }),
          what: provider,
          onRetry: ({ attempt, waitMs, fault }) =>
            logger.warn(
              `cfa/model: ${provider} failed for ${request.instance} (${fault.summary}); ` +
                `attempt ${attempt + 1} in ${Math.round(waitMs / 1000)} s`,
            ),
        });
      } catch (error) {
        throw toModelError(error, context);
      }
      const mapped = mapResponse(message);
      if ("problem" in mapped) {
        throw new ModelError(
          `cfa/model: ${request.model} answered ${request.instance} with ${mapped.problem} ` +
            `(message ${message.id})`,
          { kind: "response" },
        );
      }
      logger.debug("model response", {
        instance: request.instance,
        model: mapped.model,
        stopReason: mapped.stopReason,
        usage: mapped.usage,
      });
      return mapped satisfies ModelResponse;
    },

    limits(model: string) {
      return { contextWindow: contextWindowOf(model), maxOutput: maxOutputOf(model) };
    },
  };

  function warnIfDeprecated(model: string): void {
    if (warned.has(model) || !isKnownModel(model)) return;
    const info = modelInfo(model);
    if (info.status !== "deprecated") return;
    warned.add(model);
    logger.warn(
      `cfa/model: ${model} is deprecated (end of life ${info.endOfLife ?? "announced"}); ` +
        `choose a current model in .github/cfa.yml`,
      { model },
    );
  }
}

/** One redacted line about a failed attempt: status and error type, or the connection error. */
function summarise(error: unknown, redact: (text: string) => string): string {
  const e = error as { status?: unknown; type?: unknown; message?: unknown; name?: unknown };
  const status = typeof e.status === "number" ? `${e.status}` : "";
  const type = typeof e.type === "string" ? ` ${e.type}` : "";
  const name = typeof e.name === "string" ? e.name : "Error";
  const text = status !== "" ? `${status}${type}` : `${name}: ${String(e.message ?? "")}`;
  return redact(text).slice(0, 300);
}
