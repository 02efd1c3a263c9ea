// A hand-made Model: plays responses in order, keeps a copy of every request, and checks
// each request's shape before answering (so a malformed request fails the test at once).

import type {
  AssistantBlock,
  Model,
  ModelRequest,
  ModelResponse,
  ModelUsage,
  StopReason,
} from "../../../src/ports/model.js";
import { assertWellFormed } from "./check-request.js";

export const USAGE: ModelUsage = {
  inputTokens: 100,
  outputTokens: 10,
  cacheReadTokens: 50,
  cacheWriteTokens: 5,
};

export type Step = ModelResponse | ((request: ModelRequest) => ModelResponse);

export interface FakeModel extends Model {
  requests: ModelRequest[];
  remaining(): number;
}

export function fakeModel(steps: Step[]): FakeModel {
  const queue = [...steps];
  const requests: ModelRequest[] = [];
  return {
    requests,
    remaining: () => queue.length,
    complete(request, options) {
      options?.signal?.throwIfAborted();
      const copy = structuredClone(request);
      requests.push(copy);
      assertWellFormed(copy);
      const step = queue.shift();
      if (step === undefined)
        throw new Error(`fake model: no response left for request ${requests.length}`);
      return Promise.resolve(typeof step === "function" ? step(copy) : step);
    },
  };
}

let nextId = 0;

export function call(name: string, input: unknown, id = `toolu_${++nextId}`): AssistantBlock {
  return { type: "tool_use", id, name, input };
}

export function text(value: string): AssistantBlock {
  return { type: "text", text: value };
}

export function respond(
  content: AssistantBlock[],
  stopReason: StopReason = content.some((block) => block.type === "tool_use")
    ? "tool_use"
    : "end_turn",
): ModelResponse {
  return { content, stopReason, usage: USAGE, model: "claude-test" };
}
