// The one way the tests declare what the scripted model answers (src/adapters/scripted): a
// recording is, per instance (`agent@thread`), its responses in order, each optionally with
// what the request it answers must carry. Whole-job recordings built from these steps are in
// recordings.ts.

import type {
  AssistantBlock,
  ModelRequest,
  ModelResponse,
  ModelUsage,
  StopReason,
} from "../../../src/ports/model.js";

/** One response of the recording format (src/adapters/scripted/recording.ts's Step). */
export interface ScriptStep {
  expect?: { lastUserIncludes?: string; toolResultFor?: string; model?: string };
  response: { content: AssistantBlock[]; stopReason: StopReason; usage: ModelUsage };
}

/** The usage every step reports unless a test gives its own (what prices and caps see). */
export const STEP_USAGE: ModelUsage = {
  inputTokens: 1200,
  outputTokens: 150,
  cacheReadTokens: 800,
  cacheWriteTokens: 300,
};

let counter = 0;

/** A tool call; its id is unique in the process unless the test names one. */
export function call(name: string, input: Record<string, unknown>, id?: string): AssistantBlock {
  counter += 1;
  return {
    type: "tool_use",
    id: id ?? `toolu_${String(counter).padStart(4, "0")}`,
    name,
    input,
  };
}

/** A response of these blocks: a tool-use stop when any calls a tool, else the turn's end. */
export function respond(content: AssistantBlock[], usage: ModelUsage = STEP_USAGE): ScriptStep {
  const stopReason = content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
  return { response: { content, stopReason, usage } };
}

/** A response that calls tools (the loop runs them and asks again). */
export function tools(...calls: AssistantBlock[]): ScriptStep {
  return respond(calls);
}

/** A response that ends the turn with text. */
export function say(text: string, usage: ModelUsage = STEP_USAGE): ScriptStep {
  return respond([{ type: "text", text }], usage);
}

/** `step` as a model that decides as it goes (no recording) answers `request` with it. */
export function answer(request: ModelRequest, step: ScriptStep): ModelResponse {
  return { ...step.response, model: request.model };
}

/**
 * `step`, played only for a request that carries what `expect` says: text its last user
 * message includes (a string is short for that), a tool whose result it carries, the model.
 */
export function expecting(
  step: ScriptStep,
  expect: string | NonNullable<ScriptStep["expect"]>,
): ScriptStep {
  return { ...step, expect: typeof expect === "string" ? { lastUserIncludes: expect } : expect };
}

export function recording(instances: Record<string, ScriptStep[]>) {
  return { version: 1 as const, instances };
}
