// Wraps a real model and writes down what it answered, per instance, in the format the
// scripted model plays: record a real run once, replay it with `cfa replay`.

import type { Model, ModelRequest } from "../../ports/model.js";
import type { Recording, Step } from "./recording.js";
import { RECORDING_VERSION } from "./recording.js";
import { lastUserMessage, toolResultNames } from "./request-view.js";
import type { ToolSetName } from "../../records/tool-sets.js";

export interface RecordingModel extends Model {
  /** A copy of everything recorded so far. */
  recording(): Recording;
}

/** How much of the last user text an expectation keeps: enough to notice a divergence. */
const EXPECT_TEXT_CHARS = 60;

export function createRecordingModel(
  inner: Model,
  options: { toolSet?: ToolSetName } = {},
): RecordingModel {
  const instances: Record<string, Step[]> = {};

  return {
    async complete(request, options) {
      const response = await inner.complete(request, options);
      const step: Step = {
        expect: expectationFor(request),
        // JSON copy, keys in the order received (a step replays the response as it came).
        response: JSON.parse(
          JSON.stringify({
            content: response.content,
            stopReason: response.stopReason,
            usage: response.usage,
          }),
        ) as Step["response"],
      };
      // Recorded when the answer arrives: an instance asks one thing at a time (the
      // single-instance lifecycle, docs/protocol.md#invariants), so that is its request order too.
      (instances[request.instance] ??= []).push(step);
      return response;
    },

    recording() {
      return structuredClone({
        version: RECORDING_VERSION,
        ...(options.toolSet === undefined ? {} : { toolSet: options.toolSet }),
        instances,
      });
    },
  };
}

function expectationFor(request: ModelRequest): NonNullable<Step["expect"]> {
  const expect: NonNullable<Step["expect"]> = { model: request.model };
  const toolName = toolResultNames(request)[0];
  if (toolName !== undefined && toolName !== "?") expect.toolResultFor = toolName;
  const text = lastUserMessage(request)
    ?.content.flatMap((block) => (block.type === "text" ? [block.text.trim()] : []))
    .find((t) => t.length > 0);
  if (text !== undefined) expect.lastUserIncludes = text.slice(0, EXPECT_TEXT_CHARS);
  return expect;
}
