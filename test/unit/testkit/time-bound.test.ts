import { afterEach, describe, expect, it } from "vitest";
import { bound, timeScale } from "../../support/time-bound.js";

describe("time-bound: hang bounds scale with the machine's load", () => {
  const saved = process.env.CFA_TEST_TIME_SCALE;
  afterEach(() => {
    if (saved === undefined) delete process.env.CFA_TEST_TIME_SCALE;
    else process.env.CFA_TEST_TIME_SCALE = saved;
  });

  it("CFA_TEST_TIME_SCALE sets the factor outright", () => {
    process.env.CFA_TEST_TIME_SCALE = "3";
    expect(timeScale()).toBe(3);
    expect(bound(60_000)).toBe(180_000);
  });

  it("without it, the factor is the load per core, never below 1 nor above 8", () => {
    delete process.env.CFA_TEST_TIME_SCALE;
    expect(timeScale()).toBeGreaterThanOrEqual(1);
    expect(timeScale()).toBeLessThanOrEqual(8);
    expect(bound(1_000)).toBeGreaterThanOrEqual(1_000);
  });

  it("a nonsense factor is ignored (control)", () => {
    process.env.CFA_TEST_TIME_SCALE = "fast";
    expect(timeScale()).toBeGreaterThanOrEqual(1);
  });
});
