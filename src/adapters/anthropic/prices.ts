// What each Claude model the SDK names costs, which of them are deprecated, and the models
// proposed per tier. Prices are USD per million tokens from Anthropic's pricing pages
// (platform.claude.com/docs/en/about-claude/pricing and each model's overview page), as
// published in November 2026; cache writes are the 5-minute rate, the only TTL this
// adapter asks for. Re-check them when the SDK's `Model` union changes: the `satisfies`
// below makes tsc list any SDK model name this table lacks.

import type { Model as SdkModel } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { ModelUsage } from "../../ports/model.js";

export interface Price {
  /** Uncached input tokens. */
  input: number;
  output: number;
  /** 5-minute cache writes (`cache_creation_input_tokens`). */
  cacheWrite: number;
  /** Cache hits and refreshes (`cache_read_input_tokens`). */
  cacheRead: number;
}

export const MODEL_STATUSES = ["current", "legacy", "deprecated"] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

export interface ModelInfo {
  price: Price;
  /** Some models bill every token of a request at a higher rate once its prompt is long. */
  longPrompt?: { overTokens: number; price: Price };
  /** current: the newest of its line; legacy: superseded but not scheduled for retirement;
   * deprecated: the SDK warns on every call and the model has an end-of-life date. */
  status: ModelStatus;
  endOfLife?: string;
}

/** The literal names in the SDK's `Model` union (it also admits any string). */
type LiteralOf<T> = T extends string ? (string extends T ? never : T) : never;
export type SdkModelName = LiteralOf<SdkModel>;

const opus45to5: Price = { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 };
const fable5: Price = { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 1 };
const fable51: Price = { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 };
// Fable 5.2 and Mythos 5.2 (released 2026-11-09): $8 / $40, writes $10, hits $0.20. Mythos
// has shared Fable's card in every generation.
const fable52: Price = { input: 8, output: 40, cacheWrite: 10, cacheRead: 0.2 };
const sonnet4x: Price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
const haiku45: Price = { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 };

export const MODEL_TABLE = {
  "claude-fable-5-2": { price: fable52, status: "current" },
  "claude-mythos-5-2": { price: fable52, status: "current" },
  "claude-haiku-5-5": {
    // Two bands by prompt length (input + cache reads + cache writes of one request).
    price: { input: 0.1, output: 0.5, cacheWrite: 0.125, cacheRead: 0.01 },
    longPrompt: {
      overTokens: 100_000,
      price: { input: 0.5, output: 2.5, cacheWrite: 0.625, cacheRead: 0.05 },
    },
    status: "current",
  },
  // Cache hits cut from $0.20 to $0.10 on 2026-10-07.
  "claude-sonnet-5-5": {
    price: { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
    status: "current",
  },
  "claude-fable-5-1": { price: fable51, status: "legacy" },
  "claude-opus-5-5": {
    price: { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
    status: "current",
  },
  "claude-mythos-5-1": { price: fable51, status: "legacy" },
  "claude-sonnet-5": {
    price: { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
    status: "legacy",
  },
  "claude-fable-5": { price: fable5, status: "legacy" },
  "claude-mythos-5": { price: fable5, status: "legacy" },
  "claude-opus-5": { price: opus45to5, status: "legacy" },
  "claude-opus-4-8": { price: opus45to5, status: "legacy" },
  "claude-opus-4-7": { price: opus45to5, status: "legacy" },
  // Invitation-only research preview, superseded by Mythos 5; $25 / $125 with the standard
  // cache multipliers (1.25x write, 0.1x read).
  "claude-mythos-preview": {
    price: { input: 25, output: 125, cacheWrite: 31.25, cacheRead: 2.5 },
    status: "deprecated",
    endOfLife: "2026-06-30",
  },
  "claude-opus-4-6": { price: opus45to5, status: "legacy" },
  "claude-sonnet-4-6": { price: sonnet4x, status: "legacy" },
  "claude-haiku-4-5": { price: haiku45, status: "legacy" },
  "claude-haiku-4-5-20251001": { price: haiku45, status: "legacy" },
  "claude-opus-4-5": { price: opus45to5, status: "legacy" },
  "claude-opus-4-5-20251101": { price: opus45to5, status: "legacy" },
  // The SDK warns on every call to these two (its DEPRECATED_MODELS list).
  "claude-sonnet-4-5": { price: sonnet4x, status: "deprecated", endOfLife: "2026-11-30" },
  "claude-sonnet-4-5-20250929": {
    price: sonnet4x,
    status: "deprecated",
    endOfLife: "2026-11-30",
  },
} as const satisfies Record<SdkModelName, ModelInfo>;

export type KnownModel = keyof typeof MODEL_TABLE;

export const KNOWN_MODELS = Object.keys(MODEL_TABLE) as KnownModel[];

export function isKnownModel(model: string): model is KnownModel {
  return Object.hasOwn(MODEL_TABLE, model);
}

export function modelInfo(model: string): ModelInfo {
  if (!isKnownModel(model)) throw new UnknownModelError(model);
  return MODEL_TABLE[model];
}

export function isDeprecatedModel(model: string): boolean {
  return isKnownModel(model) && MODEL_TABLE[model].status === "deprecated";
}

export const MODEL_TIERS = ["reasoning", "capable", "fast"] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

/**
 * Proposed models per tier: the newest of each line, none deprecated. claude-fable-5-2
 * ($8 / $40) is the step up for `reasoning` when Opus 5.5 falls short.
 */
export const DEFAULT_MODELS = {
  reasoning: "claude-opus-5-5",
  capable: "claude-sonnet-5-5",
  fast: "claude-haiku-5-5",
} as const satisfies Record<ModelTier, KnownModel>;

/**
 * USD for the usage of ONE response. Price each response separately and add the results:
 * a model with a long-prompt band (claude-haiku-5-5) bills by the prompt of each request,
 * so pricing a summed usage would pick the wrong band.
 */
export function costOf(model: string, usage: ModelUsage): number {
  const info = modelInfo(model);
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const price =
    info.longPrompt !== undefined && prompt > info.longPrompt.overTokens
      ? info.longPrompt.price
      : info.price;
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheWriteTokens * price.cacheWrite +
      usage.cacheReadTokens * price.cacheRead) /
    1_000_000
  );
}

export class UnknownModelError extends Error {
  override readonly name = "UnknownModelError";
  constructor(readonly model: string) {
    super(
      `cfa/anthropic: no price for model "${model}": use one of ${KNOWN_MODELS.join(", ")}, ` +
        `or add it to src/adapters/anthropic/prices.ts with its published prices`,
    );
  }
}
