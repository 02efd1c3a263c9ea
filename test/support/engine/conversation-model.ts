// A scripted model that finds its place in the conversation, not in a queue: the step an
// instance plays is the number of assistant messages its request already carries. A wake that
// died mid-turn lost that turn's messages (bounded crash-loss: docs/protocol.md#invariants),
// so the next wake asks again from the same place and gets the same answers, which a stateful
// queue (the scripted adapter's) cannot do across a new process.

import type { Model, ModelRequest, ModelResponse } from "../../../src/ports/model.js";
import {
  parseRecording,
  ScriptMismatchError,
  type Step,
} from "../../../src/adapters/scripted/index.js";
import {
  excerpt,
  lastUserText,
  toolResultNames,
} from "../../../src/adapters/scripted/request-view.js";

export interface ConversationModel extends Model {
  /** Steps never played, per instance (a step replayed after a crash counts once). */
  unplayed(): Record<string, number>;
  /** Every request, in order: instance and the step it was answered with. */
  readonly requests: { instance: string; step: number; request: ModelRequest }[];
}

export function createConversationModel(recording: unknown): ConversationModel {
  const script = parseRecording(recording, "test");
  const furthest = new Map<string, number>();
  const requests: ConversationModel["requests"] = [];
  return {
    requests,
    async complete(request, options) {
      options?.signal?.throwIfAborted();
      const steps = script.instances[request.instance] ?? [];
      const index = request.messages.filter((m) => m.role === "assistant").length;
      const step = steps[index];
      if (step === undefined) {
        throw new ScriptMismatchError(
          request.instance,
          index,
          [
            steps.length === 0
              ? "the recording has no steps for this instance"
              : `no steps left (the recording has ${steps.length} for this instance)`,
          ],
          excerpt(lastUserText(request)),
        );
      }
      const differences = expectationDifferences(step, request);
      if (differences.length > 0) {
        throw new ScriptMismatchError(
          request.instance,
          index,
          differences,
          excerpt(lastUserText(request), 400),
        );
      }
      furthest.set(request.instance, Math.max(furthest.get(request.instance) ?? 0, index + 1));
      requests.push({ instance: request.instance, step: index, request });
      return responseOf(step, request);
    },
    unplayed() {
      const out: Record<string, number> = {};
      for (const [instance, steps] of Object.entries(script.instances)) {
        const left = steps.length - (furthest.get(instance) ?? 0);
        if (left > 0) out[instance] = left;
      }
      return out;
    },
  };
}

function expectationDifferences(step: Step, request: ModelRequest): string[] {
  const expect = step.expect;
  if (expect === undefined) return [];
  const out: string[] = [];
  if (
    expect.lastUserIncludes !== undefined &&
    !lastUserText(request).includes(expect.lastUserIncludes)
  ) {
    out.push(
      `expected the last user message to include ${JSON.stringify(expect.lastUserIncludes)}`,
    );
  }
  if (expect.toolResultFor !== undefined) {
    const names = toolResultNames(request);
    if (!names.includes(expect.toolResultFor)) {
      out.push(
        `expected a tool result for ${expect.toolResultFor}, got ${names.join(", ") || "none"}`,
      );
    }
  }
  return out;
}

function responseOf(step: Step, request: ModelRequest): ModelResponse {
  const { content, stopReason, usage } = structuredClone(step.response);
  return { content, stopReason, usage, model: request.model };
}

/**
 * The conversation model, keeping every error it threw. A script mismatch fails the turn,
 * and the recovery message the engine sends quotes the mismatch — which can satisfy the
 * very expectation that failed on the retry — so a test that must follow its script exactly
 * asserts `errors` is empty.
 */
export function createStrictConversationModel(
  recording: unknown,
): ConversationModel & { errors: unknown[] } {
  const inner = createConversationModel(recording);
  const errors: unknown[] = [];
  return {
    requests: inner.requests,
    unplayed: () => inner.unplayed(),
    errors,
    async complete(request, options) {
      try {
        return await inner.complete(request, options);
      } catch (error) {
        errors.push(error);
        throw error;
      }
    },
  };
}
