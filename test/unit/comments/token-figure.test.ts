// One token figure, so no two places disagree: in = input + cache reads + cache writes (the
// Messages API's own total of input, per @anthropic-ai/sdk's Usage), out apart, one formatter
// for the status comment and every cfa verb.

import { describe, expect, it } from "vitest";
import { formatTokens, tokenFigure, tokensIn } from "../../../src/comments/token-figure.js";
import { formatUsage } from "../../../src/cli/format-usage.js";
import { renderStatusComment } from "../../../src/comments/status-comment.js";
import { newJobRecord } from "../../../src/protocol/job-record.js";
import { initialEngineState, withEngineState } from "../../../src/records/engine-state.js";

const usage = {
  inputTokens: 4_000,
  outputTokens: 3_200,
  cacheReadTokens: 172_000,
  cacheWriteTokens: 8_000,
};

describe("the token figure", () => {
  it("counts cache reads and writes as input, output apart, and says the cache's share", () => {
    expect(tokensIn(usage)).toBe(184_000);
    expect(tokenFigure(usage)).toBe(
      "184k in / 3.2k out tokens (in: 172k read from the cache, 8.0k written to it)",
    );
    expect(tokenFigure({ ...usage, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBe(
      "4.0k in / 3.2k out tokens",
    );
  });

  it("is the same words in the status comment and in cfa inspect (one formatter)", () => {
    const engine = initialEngineState("ana");
    const job = {
      ...withEngineState(newJobRecord({ job: 3, title: "x", at: "2026-01-01T00:00:00Z" }), engine),
      usage,
    };
    const body = renderStatusComment({ job, engine, waitingOn: "w", links: { artifacts: [] } });
    expect(body).toContain(`| ${tokenFigure(usage)} |`);
    // The old total added output and cache to one number: 187,200 for these.
    expect(body).not.toContain("187,200");
    expect(formatUsage(usage)).toBe(tokenFigure(usage));
    expect(formatTokens(999)).toBe("999");
  });
});
