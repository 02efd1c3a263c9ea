// The model calls of one turn, as the loop sees them: each request is built
// with the role's output plan and kept inside the model's context window; each response is
// judged by its stop reason before it joins the conversation. The loop itself (run-turn.ts)
// only asks for the next request and for the verdict on each response.

import type { Message, Model, ModelRequest, ModelResponse, ToolSpec } from "../../ports/model.js";
import { ContextMeter, DEFAULT_LIMITS, fitContext, viewStart } from "./context-budget.js";
import { outputPlan, type OutputPlan, type OutputSettings } from "./output-plan.js";
import { requestMessages } from "./request-messages.js";
import { stopVerdict } from "./stop-verdict.js";

export interface ModelCalls {
  /**
   * The next request of the turn over `transcript` and the turn's `added` messages. When the
   * conversation would no longer fit, a restart message is appended to `added` first.
   */
  next(transcript: readonly Message[], added: Message[]): ModelRequest;
  /**
   * What to do with a response to `request`: "use" it, or "retry" the same request with a
   * larger output budget (the response is not kept). A refusal, or a cut at the model's
   * own limit, is the error the turn fails with (a state-level failure that says why): the
   * loop throws it once the response is accounted for.
   */
  judge(response: ModelResponse, request: ModelRequest): "use" | "retry" | Error;
  /** A response was used; `countAfter` messages now make up the conversation. */
  used(response: ModelResponse, countAfter: number): void;
}

export function modelCalls(input: {
  instance: string;
  role: string;
  model: Model;
  modelName: string;
  system: string;
  /** The repository's instructions block, shared by every role ("" or absent: none). */
  instructions?: string | undefined;
  /** The role's block, before `system` (absent: none). */
  rolePrompt?: string | undefined;
  /** Leading tools another role's requests open with too (ModelRequest.sharedTools). */
  sharedTools?: number | undefined;
  tools: ToolSpec[];
  /** Per-role overrides from the configuration. */
  output?: OutputSettings | undefined;
}): ModelCalls {
  const limits = input.model.limits?.(input.modelName) ?? DEFAULT_LIMITS;
  let plan: OutputPlan = outputPlan(input.role, limits.maxOutput, input.output);
  const meter = new ContextMeter();
  let lastStart = 0;
  const shared = input.instructions ?? "";

  return {
    next(transcript, added) {
      const all = [...transcript, ...added];
      fitContext({
        all,
        added,
        system: shared + (input.rolePrompt ?? "") + input.system,
        tools: input.tools,
        meter,
        limits,
        maxTokens: plan.maxTokens,
      });
      lastStart = viewStart(all);
      return {
        instance: input.instance,
        model: input.modelName,
        system: input.system,
        ...(shared === "" ? {} : { instructions: shared }),
        ...(input.rolePrompt === undefined || input.rolePrompt === ""
          ? {}
          : { rolePrompt: input.rolePrompt }),
        ...(input.sharedTools === undefined || input.sharedTools === 0
          ? {}
          : { sharedTools: input.sharedTools }),
        tools: input.tools,
        messages: requestMessages(all),
        maxTokens: plan.maxTokens,
        effort: plan.effort,
        cacheLifetime: plan.cacheLifetime,
        // What every instance of the job shares (tools, instructions, the role's block) lives
        // an hour: parallel tasks and later phases find it, written once.
        ...(input.rolePrompt === undefined || input.rolePrompt === ""
          ? {}
          : { sharedCacheLifetime: "1h" as const }),
      };
    },

    judge(response, request) {
      const verdict = stopVerdict(response, request, limits.maxOutput);
      if (verdict.kind === "fail") return verdict.error;
      if (verdict.kind === "retry") {
        plan = { ...plan, maxTokens: verdict.maxTokens };
        return "retry";
      }
      return "use";
    },

    used(response, countAfter) {
      meter.observe(lastStart, countAfter, response.usage, true);
    },
  };
}
