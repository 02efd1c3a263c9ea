// The Model port played from a recording (tests, `cfa replay`, the demo). Each instance
// plays its own steps in order, whatever the interleaving with other instances; a request
// the next step does not expect, or one past the end, is a ScriptMismatchError naming the
// instance and the step. Usage comes from the recording as if real.

import type { Model, ModelRequest, ModelResponse } from "../../ports/model.js";
import type { Recording, Step } from "./recording.js";
import { parseRecording } from "./recording.js";
import { excerpt, lastToolResults, lastUserText, toolResultNames } from "./request-view.js";
import { ScriptMismatchError } from "./script-mismatch-error.js";

export interface ScriptedModelOptions {
  /**
   * Also check that each request answers the previous step: when that step asked for tools,
   * the last user message must carry exactly one result per tool_use id it emitted.
   */
  strict?: boolean;
  /** Names the recording in validation errors (e.g. its file path). */
  source?: string;
}

export interface ScriptedModel extends Model {
  /** Steps not yet played, per instance. */
  remaining(): Record<string, number>;
}

/** `recording` is validated here: a bad one is a RecordingError naming the JSON path. */
export function createScriptedModel(
  recording: unknown,
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const script: Recording = parseRecording(recording, options.source);
  const queues = new Map<string, { steps: readonly Step[]; next: number }>();
  for (const [instance, steps] of Object.entries(script.instances)) {
    queues.set(instance, { steps, next: 0 });
  }

  return {
    async complete(request, callOptions) {
      callOptions?.signal?.throwIfAborted();
      const queue = queues.get(request.instance);
      const index = queue?.next ?? 0;
      const step = queue?.steps[index];
      if (queue === undefined || step === undefined) {
        const recorded = queue?.steps.length ?? 0;
        throw new ScriptMismatchError(
          request.instance,
          index,
          [
            recorded === 0
              ? "the recording has no steps for this instance"
              : `no steps left (the recording has ${recorded} for this instance)`,
          ],
          excerpt(lastUserText(request)),
        );
      }
      const previous = index > 0 ? queue.steps[index - 1] : undefined;
      const differences = [
        ...expectationDifferences(step, request),
        ...(options.strict === true ? answerDifferences(previous, request) : []),
      ];
      if (differences.length > 0) {
        throw new ScriptMismatchError(
          request.instance,
          index,
          differences,
          excerpt(lastUserText(request)),
        );
      }
      queue.next = index + 1;
      return responseOf(step, request);
    },

    remaining() {
      const out: Record<string, number> = {};
      for (const [instance, queue] of queues) out[instance] = queue.steps.length - queue.next;
      return out;
    },
  };
}

function expectationDifferences(step: Step, request: ModelRequest): string[] {
  const expect = step.expect;
  if (expect === undefined) return [];
  const out: string[] = [];
  if (expect.model !== undefined && expect.model !== request.model) {
    out.push(`expected model ${expect.model}, got ${request.model}`);
  }
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
        `expected a tool result for ${expect.toolResultFor}, got ` +
          (names.length === 0 ? "none" : names.join(", ")),
      );
    }
  }
  return out;
}

function answerDifferences(previous: Step | undefined, request: ModelRequest): string[] {
  if (previous === undefined || previous.response.stopReason !== "tool_use") return [];
  const asked = previous.response.content.flatMap((block) =>
    block.type === "tool_use" ? [block.id] : [],
  );
  const answered = lastToolResults(request).map((result) => result.tool_use_id);
  const missing = asked.filter((id) => !answered.includes(id));
  const extra = answered.filter((id) => !asked.includes(id));
  const out: string[] = [];
  if (missing.length > 0) out.push(`no tool result for ${missing.join(", ")}`);
  if (extra.length > 0)
    out.push(`tool results for ids the previous step did not ask: ${extra.join(", ")}`);
  return out;
}

function responseOf(step: Step, request: ModelRequest): ModelResponse {
  const { content, stopReason, usage } = structuredClone(step.response);
  return { content, stopReason, usage, model: request.model };
}
