// patience.ts: the adapter's one retry loop, so an API outage waits instead of failing the job.
// The end-to-end behaviour is proven in anthropic-model.test.ts and test/e2e/model; here, its
// arithmetic.

import { describe, expect, it } from "vitest";
import {
  backoffMs,
  DEFAULT_PATIENCE_MS,
  MAX_DELAY_MS,
  serverWaitMs,
} from "../../../../src/adapters/anthropic/patience.js";

const headers = (values: Record<string, string>) => ({
  get: (name: string) => values[name] ?? null,
});

describe("patience", () => {
  it("backs off from 2 s, doubling, capped at a minute, with up to half taken off as jitter", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, () => 0))).toEqual([
      2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000,
    ]);
    expect(backoffMs(3, () => 0.999)).toBeGreaterThanOrEqual(4_000);
    expect(backoffMs(50, () => 0)).toBe(MAX_DELAY_MS);
    expect(DEFAULT_PATIENCE_MS).toBe(15 * 60_000);
  });

  it("reads the server's wait from retry-after-ms, then retry-after in seconds or as a date", () => {
    expect(serverWaitMs(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(serverWaitMs(headers({ "retry-after": "9" }))).toBe(9_000);
    const now = Date.parse("2026-11-20T10:00:00Z");
    expect(
      serverWaitMs(headers({ "retry-after": "Fri, 20 Nov 2026 10:00:30 GMT" }), () => now),
    ).toBe(30_000);
    // Zero, negative, a past date or nonsense: no wait from the server (the backoff applies).
    for (const value of ["0", "-3", "Fri, 20 Nov 2026 09:00:00 GMT", "soon"]) {
      expect(serverWaitMs(headers({ "retry-after": value }), () => now)).toBeUndefined();
    }
    expect(serverWaitMs(undefined)).toBeUndefined();
  });
});
