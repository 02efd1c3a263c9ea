import { describe, expect, it } from "vitest";
import { formatTokens, formatUsd } from "../../../src/cli/format-usage.js";

describe("formatTokens and formatUsd", () => {
  it.each([
    [999, "999"],
    [1234, "1.2k"],
    [184_000, "184k"],
    [2_345_678, "2.35M"],
  ])("%d tokens → %s", (n, text) => {
    expect(formatTokens(n)).toBe(text);
  });

  it("keeps cents of cents below a dollar", () => {
    expect(formatUsd(0.01234)).toBe("$0.0123");
    expect(formatUsd(12.5)).toBe("$12.50");
  });
});
