// What the loop does with a response, by its stop reason, decided before the
// response joins the conversation:
//
// - max_tokens: the response was cut at the output budget (thinking counts toward it). It is
//   not kept — a cut tool call is incomplete and a cut thought is of no use — and the same
//   request goes again with twice the budget, up to the model's own limit; the docs' remedy
//   for a cut tool call ("retry the request with a higher max_tokens value",
//   https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons). The same
//   bytes again also read the whole prefix from cache. Cut at the model's limit: OutputLimitError.
// - refusal: ModelRefusalError, a state-level failure that says so.
// - anything else: use the response.
//
// The cut or refused response was still paid for: the loop's after-call hook sees it first.

import type { ModelResponse } from "../../ports/model.js";
import { ModelRefusalError } from "./model-refusal-error.js";
import { OutputLimitError } from "./output-limit-error.js";

export type StopVerdict =
  { kind: "use" } | { kind: "retry"; maxTokens: number } | { kind: "fail"; error: Error };

export function stopVerdict(
  response: ModelResponse,
  request: { instance: string; model: string; maxTokens: number },
  maxOutput: number,
): StopVerdict {
  switch (response.stopReason) {
    case "max_tokens": {
      if (request.maxTokens >= maxOutput) {
        return {
          kind: "fail",
          error: new OutputLimitError(request.instance, request.model, request.maxTokens),
        };
      }
      return { kind: "retry", maxTokens: Math.min(request.maxTokens * 2, maxOutput) };
    }
    case "refusal":
      return {
        kind: "fail",
        error: new ModelRefusalError(
          request.instance,
          response.model,
          response.refusal?.category ?? null,
          response.refusal?.explanation ?? null,
        ),
      };
    case "end_turn":
    case "tool_use":
    case "stop_sequence":
    case "pause_turn":
      return { kind: "use" };
    default: {
      const unreachable: never = response.stopReason;
      return unreachable;
    }
  }
}
