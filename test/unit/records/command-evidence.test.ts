// Issue 20: the count line of a test runner, parsed defensively from a command's output for
// the evidence a verdict shows beside the exit code the engine saw.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandLine, evidenceOf, testSummary } from "../../../src/records/command-evidence.js";

describe("testSummary reads the runners' own count lines", () => {
  it.each([
    [
      "vitest",
      " Test Files  1 passed (1)\n      Tests  32 passed (32)\n   Start at  10:00:00",
      "32 passed",
    ],
    ["vitest with failures", "      Tests  1 failed | 31 passed (32)", "1 failed, 31 passed"],
    [
      "vitest with ANSI colours",
      "\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[32m5 passed\u001b[39m\u001b[22m\u001b[90m (5)\u001b[39m",
      "5 passed",
    ],
    [
      "jest",
      "Tests:       1 failed, 2 skipped, 31 passed, 34 total\nTime: 1s",
      "1 failed, 31 passed, 2 skipped",
    ],
    [
      "pytest",
      "==================== 3 passed, 1 failed in 0.12s ====================",
      "1 failed, 3 passed",
    ],
    [
      "pytest with errors",
      "=========== 2 passed, 1 error in 1.01s ===========",
      "1 failed, 2 passed",
    ],
    [
      "node --test, spec reporter",
      "ℹ tests 2\nℹ suites 0\nℹ pass 2\nℹ fail 0\nℹ cancelled 0",
      "2 passed",
    ],
    ["node --test, TAP", "# tests 3\n# pass 2\n# fail 1\n# skipped 0", "1 failed, 2 passed"],
    ["the plain line", "noise\n12 passed, 0 failed\n", "12 passed"],
    [
      "go test",
      "ok  \texample.com/a\t0.01s\nFAIL\texample.com/b\t0.02s",
      "1 package(s) failed, 1 package(s) ok",
    ],
  ])("%s", (_name, output, expected) => {
    expect(testSummary(output)).toBe(expected);
  });

  it("finds nothing in output that has no runner's line", () => {
    expect(testSummary("added 2 packages in 1s\n")).toBeNull();
    expect(testSummary("")).toBeNull();
  });

  it("reads only the tail, and returns in linear time on hostile output (no ReDoS)", () => {
    const hostile = `${"Tests ".repeat(20_000)}${"=".repeat(50_000)} ${"1 passed ".repeat(5_000)}`;
    const start = performance.now();
    testSummary(hostile);
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it("never throws and never says more than a short line, whatever the output", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (output) => {
        const summary = testSummary(output);
        return summary === null || (summary.length <= 120 && /^[\w ,()]+$/u.test(summary));
      }),
    );
  });
});

describe("evidenceOf keeps what the engine saw", () => {
  it("the command, its exit code, duration and the runner's count", () => {
    expect(
      evidenceOf(commandLine(["npm", "test"]), {
        exitCode: 1,
        durationMs: 1234.6,
        timedOut: false,
        stdout: "ℹ pass 1\nℹ fail 1",
        stderr: "",
      }),
    ).toEqual({
      command: "npm test",
      exitCode: 1,
      durationMs: 1235,
      summary: "1 failed, 1 passed",
    });
  });

  it("quotes arguments a person could misread, and cuts a long command line", () => {
    expect(commandLine(["node", "-e", "console.log(1)"])).toBe('node -e "console.log(1)"');
    expect(commandLine(["echo", "x".repeat(500)]).length).toBeLessThanOrEqual(200);
  });
});
