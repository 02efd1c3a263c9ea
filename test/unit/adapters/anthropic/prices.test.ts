import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  contextWindowOf,
  costOf,
  maxOutputOf,
  DEFAULT_MODELS,
  isDeprecatedModel,
  isKnownModel,
  KNOWN_MODELS,
  MODEL_TABLE,
  modelInfo,
  UnknownModelError,
} from "../../../../src/adapters/anthropic/prices.js";

const usage = (
  inputTokens: number,
  outputTokens: number,
  cacheWriteTokens = 0,
  cacheReadTokens = 0,
) => ({
  inputTokens,
  outputTokens,
  cacheWriteTokens,
  cacheReadTokens,
});

describe("prices", () => {
  it("prices each kind of token at its own rate (USD per million)", () => {
    // Opus 5.5: $4 in, $20 out, $5 cache write, $0.20 cache read.
    expect(costOf("claude-opus-5-5", usage(1_000_000, 0))).toBeCloseTo(4, 10);
    expect(costOf("claude-opus-5-5", usage(0, 1_000_000))).toBeCloseTo(20, 10);
    expect(costOf("claude-opus-5-5", usage(0, 0, 1_000_000))).toBeCloseTo(5, 10);
    expect(costOf("claude-opus-5-5", usage(0, 0, 0, 1_000_000))).toBeCloseTo(0.2, 10);
    expect(costOf("claude-haiku-4-5", usage(2000, 1000, 4000, 10_000))).toBeCloseTo(
      (2000 * 1 + 1000 * 5 + 4000 * 1.25 + 10_000 * 0.1) / 1e6,
      12,
    );
  });

  it("bills a whole claude-haiku-5-5 request at the long-prompt band once its prompt passes 100k", () => {
    // prompt = input + cache reads + cache writes
    const atLimit = usage(50_000, 1000, 20_000, 30_000);
    expect(costOf("claude-haiku-5-5", atLimit)).toBeCloseTo(
      (50_000 * 0.1 + 1000 * 0.5 + 20_000 * 0.125 + 30_000 * 0.01) / 1e6,
      12,
    );
    const over = usage(50_001, 1000, 20_000, 30_000);
    expect(costOf("claude-haiku-5-5", over)).toBeCloseTo(
      (50_001 * 0.5 + 1000 * 2.5 + 20_000 * 0.625 + 30_000 * 0.05) / 1e6,
      12,
    );
  });

  it("bills 1-hour cache writes at twice the input price, the rest of the writes at the 5-minute rate", () => {
    // Sonnet 5.5: $2 in; 5-minute write $2.50, 1-hour write $4 (2x, prompt-caching "Pricing").
    const written = { ...usage(0, 0, 1_000_000), cacheWrite1hTokens: 400_000 };
    expect(costOf("claude-sonnet-5-5", written)).toBeCloseTo(0.6 * 2.5 + 0.4 * 4, 10);
  });

  it("prices a turn response by response: summed usage would pick the wrong band", () => {
    // Ten requests of 20k prompt tokens each: every one in the short band.
    const one = usage(20_000, 500);
    const perResponse = 10 * costOf("claude-haiku-5-5", one);
    const summed = costOf("claude-haiku-5-5", usage(200_000, 5000));
    expect(perResponse).toBeCloseTo((200_000 * 0.1 + 5000 * 0.5) / 1e6, 12);
    expect(summed / perResponse).toBeCloseTo(5, 1);
  });

  it("knows each model's context window and output limit, 1M / 128K for the 5.x line", () => {
    expect(contextWindowOf("claude-sonnet-5-5")).toBe(1_000_000);
    expect(maxOutputOf("claude-opus-5-5")).toBe(128_000);
    expect(contextWindowOf("claude-haiku-4-5")).toBe(200_000);
    expect(maxOutputOf("claude-haiku-4-5")).toBe(64_000);
    expect(contextWindowOf("a-model-nobody-knows")).toBe(200_000);
  });

  it("names an unknown model and the known ones", () => {
    expect(() => costOf("claude-3-opus-20240229", usage(1, 1))).toThrow(UnknownModelError);
    let error: unknown;
    try {
      costOf("gpt-9", usage(1, 1));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnknownModelError);
    expect((error as Error).name).toBe("UnknownModelError");
    expect((error as Error).message).toMatch(
      /^cfa\/anthropic: no price for model "gpt-9": use one of claude-.*claude-opus-5-5/,
    );
  });

  it("knows exactly the table's models, and nothing from Object's prototype", () => {
    expect(isKnownModel("claude-sonnet-5-5")).toBe(true);
    expect(isKnownModel("claude-sonnet-5-5-20990101")).toBe(false);
    expect(isKnownModel("constructor")).toBe(false);
    expect(isKnownModel("__proto__")).toBe(false);
    expect(KNOWN_MODELS).toHaveLength(Object.keys(MODEL_TABLE).length);
  });

  it("proposes per tier a current model that is not deprecated", () => {
    for (const model of Object.values(DEFAULT_MODELS)) {
      expect(isKnownModel(model)).toBe(true);
      expect(modelInfo(model).status).toBe("current");
      expect(isDeprecatedModel(model)).toBe(false);
    }
  });

  it("marks deprecated every model the SDK warns about on each call", () => {
    // The SDK keeps its list private; read it from the installed source.
    const require = createRequire(import.meta.url);
    const sdkMessages = require.resolve("@anthropic-ai/sdk/resources/messages/messages.js");
    const source = readFileSync(sdkMessages, "utf8");
    const block = /DEPRECATED_MODELS = \{([^}]*)\}/.exec(source)?.[1];
    expect(block).toBeDefined();
    const warned = [...block!.matchAll(/'([^']+)':\s*'([^']+)'/g)].map((m) => m[1]!);
    expect(warned.length).toBeGreaterThan(0);
    for (const model of warned) {
      expect(isKnownModel(model), model).toBe(true);
      expect(isDeprecatedModel(model), model).toBe(true);
    }
  });
});
