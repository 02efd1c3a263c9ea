// What each Claude model the SDK names costs, how much context and output it takes, which of
// them are deprecated, and the models proposed per tier. Prices are USD per million tokens
// from Anthropic's pricing pages (platform.claude.com/docs/en/about-claude/pricing and each
// model's overview page, e.g. platform.claude.com/docs/en/models/haiku-5-5/overview), as
// published in November 2026. A 1-hour cache write costs 2x the base input price and a
// 5-minute one 1.25x (https://platform.claude.com/docs/en/build-with-claude/prompt-caching,
// "Pricing"). Context windows and output limits are the overview pages' (every 5.x model:
// 1M / 128K); for the 4.x models this table keeps 200K / 64K, their standard limits, so the
// context budget never counts on a beta. Re-check them when the SDK's `Model` union changes:
// the `satisfies` below makes tsc list any SDK model name this table lacks.

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

/** The 1-hour cache write rate: twice the base input price (prompt-caching "Pricing"). */
export function oneHourWrite(price: Price): number {
  return price.input * 2;
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
  /** The context window in tokens (input and output together); default 200K (the 4.x models). */
  contextWindow?: number;
  /** The largest `max_tokens` the model takes; default 64K (the 4.x models). */
  maxOutput?: number;
}

const FIVE = { contextWindow: 1_000_000, maxOutput: 128_000 } as const;
export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const DEFAULT_MAX_OUTPUT = 64_000;

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
  "claude-fable-5-2": { price: fable52, status: "current", ...FIVE },
  "claude-mythos-5-2": { price: fable52, status: "current", ...FIVE },
  "claude-haiku-5-5": {
    // Two bands by prompt length (input + cache reads + cache writes of one request).
    price: { input: 0.1, output: 0.5, cacheWrite: 0.125, cacheRead: 0.01 },
    longPrompt: {
      overTokens: 100_000,
      price: { input: 0.5, output: 2.5, cacheWrite: 0.625, cacheRead: 0.05 },
    },
    status: "current",
    ...FIVE,
  },
  // Cache hits cut from $0.20 to $0.10 on 2026-10-07.
  "claude-sonnet-5-5": {
    price: { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
    status: "current",
    ...FIVE,
  },
  "claude-fable-5-1": { price: fable51, status: "legacy", ...FIVE },
  "claude-opus-5-5": {
    price: { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
    status: "current",
    ...FIVE,
  },
  "claude-mythos-5-1": { price: fable51, status: "legacy", ...FIVE },
  "claude-sonnet-5": {
    price: { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
    status: "legacy",
    ...FIVE,
  },
  "claude-fable-5": { price: fable5, status: "legacy", ...FIVE },
  "claude-mythos-5": { price: fable5, status: "legacy", ...FIVE },
  "claude-opus-5": { price: opus45to5, status: "legacy", ...FIVE },
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

/** The context window of `model` in tokens (unknown models: the 4.x default, 200K). */
export function contextWindowOf(model: string): number {
  return isKnownModel(model)
    ? ((MODEL_TABLE[model] as ModelInfo).contextWindow ?? DEFAULT_CONTEXT_WINDOW)
    : DEFAULT_CONTEXT_WINDOW;
}

/** The largest output budget `model` takes (unknown models: 64K). */
export function maxOutputOf(model: string): number {
  return isKnownModel(model)
    ? ((MODEL_TABLE[model] as ModelInfo).maxOutput ?? DEFAULT_MAX_OUTPUT)
    : DEFAULT_MAX_OUTPUT;
}

/**
 * USD for the usage of ONE response. Price each response on its own and add the
 * results: a model with a long-prompt band (claude-haiku-5-5) bills every token of a request
 * at the higher band once that request's prompt passes the threshold, so pricing a turn's
 * summed usage would pick the wrong band (5x off for a turn of small requests). 1-hour cache
 * writes are billed at their own rate.
 */
export function costOf(model: string, usage: ModelUsage): number {
  const info = modelInfo(model);
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const price =
    info.longPrompt !== undefined && prompt > info.longPrompt.overTokens
      ? info.longPrompt.price
      : info.price;
  const oneHour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheWriteTokens);
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      (usage.cacheWriteTokens - oneHour) * price.cacheWrite +
      oneHour * oneHourWrite(price) +
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
