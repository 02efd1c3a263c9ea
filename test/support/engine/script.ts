// Building scripted-model recordings by hand: per instance, the responses it gives, in order.

import type { AssistantBlock } from "../../../src/ports/model.js";

let counter = 0;
const usage = { inputTokens: 1200, outputTokens: 150, cacheReadTokens: 800, cacheWriteTokens: 300 };

export interface ScriptStep {
  expect?: { lastUserIncludes?: string; toolResultFor?: string };
  response: {
    content: AssistantBlock[];
    stopReason: "end_turn" | "tool_use";
    usage: typeof usage;
  };
}

export function call(name: string, input: Record<string, unknown>): AssistantBlock {
  counter += 1;
  return { type: "tool_use", id: `toolu_${String(counter).padStart(4, "0")}`, name, input };
}

/** A response that calls tools (the loop runs them and asks again). */
export function tools(...calls: AssistantBlock[]): ScriptStep {
  return { response: { content: calls, stopReason: "tool_use", usage } };
}

/** A response that ends the turn with text. */
export function say(text: string): ScriptStep {
  return { response: { content: [{ type: "text", text }], stopReason: "end_turn", usage } };
}

export function expecting(step: ScriptStep, lastUserIncludes: string): ScriptStep {
  return { ...step, expect: { lastUserIncludes } };
}

export function recording(instances: Record<string, ScriptStep[]>) {
  return { version: 1 as const, instances };
}
