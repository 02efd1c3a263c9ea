// A command's output is the agent's to write: the parsers read it bounded, colour-free, on
// linear-time patterns, and no forged line makes a count larger than a runner could print.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_COUNT, testSummary } from "../../../../src/records/test-counts/index.js";

describe("what no runner printed has no count", () => {
  it("ordinary output, nothing, and near misses", () => {
    expect(testSummary("added 2 packages in 1s\n")).toBeNull();
    expect(testSummary("")).toBeNull();
    expect(testSummary("Ran 3 tests in 0.1s\n\nMAYBE\n")).toBeNull(); // no unittest verdict
    expect(testSummary("test result: ok. lots passed\n")).toBeNull();
  });

  it("a forged count past seven digits is no count at all, not a huge one", () => {
    expect(testSummary("Ran 99999999999 tests in 0.001s\n\nOK\n")).toBeNull();
    expect(testSummary("Tests:       123456789012 passed, 123456789012 total")).toBeNull();
  });

  it("a sum of forged lines is capped (cargo: one line per test binary)", () => {
    const line =
      "test result: ok. 9999999 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
    expect(testSummary(line.repeat(50))).toBe(`${MAX_COUNT}+ passed`);
  });
});

describe("the output as a terminal shows it", () => {
  it("colour codes, OSC hyperlinks and redrawn progress lines are removed", () => {
    const coloured =
      "\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007\n\u001b[1m\u001b[31m1 failed\u001b[0m, \u001b[32m2 passed\u001b[0m in 0.5s\n";
    expect(testSummary(coloured)).toBe("1 failed, 2 passed");
    expect(testSummary("running 10%\rrunning 100%\r3 passed, 0 failed\r\n")).toBe("3 passed");
  });

  it("the runner that spoke last is the one shown (a linter's line, then the tests)", () => {
    const both = "12 passed, 0 failed\n...\n      Tests  1 failed | 4 passed (5)\n";
    expect(testSummary(both)).toBe("1 failed, 4 passed");
  });

  it("stdout and stderr are each read: unittest writes its verdict to stderr", () => {
    expect(testSummary(["building…", "Ran 2 tests in 0.001s\n\nOK\n"])).toBe("2 passed");
  });

  it("output the sandbox cut gives no sum over sections, which would be short", () => {
    const crate = "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
    expect(testSummary(crate, { truncated: true })).toBeNull();
    expect(testSummary(crate)).toBe("2 passed");
    // A runner's own total line is still its total.
    expect(testSummary("===== 5 passed in 0.1s =====", { truncated: true })).toBe("5 passed");
  });
});

describe("hostile output is read in time proportional to its size", () => {
  it("lines built to make a backtracking engine explode finish (RE2 patterns, bounded lines)", () => {
    const hostile = [
      `${"Tests ".repeat(20_000)}`,
      `${"=".repeat(50_000)} ${"1 passed, ".repeat(5_000)}`,
      `Summary [ ${"1".repeat(40_000)}`,
      `${"1 runs, ".repeat(10_000)}`,
      `Tests: 1${", Failures: 1".repeat(10_000)}`,
      `${"9".repeat(300_000)}`,
    ].join("\n");
    // Completes within the test's own timeout, whatever the machine's load; the patterns
    // are RE2's (no backtracking), so there is no input that makes them slower than linear.
    expect(testSummary(hostile)).toBeNull();
  });

  it("never throws and says at most a short line of counts, whatever the output", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (output) => {
        const summary = testSummary(output);
        return summary === null || (summary.length <= 120 && /^[\w ,()+]+$/u.test(summary));
      }),
    );
  });

  it("runner-shaped noise never claims more than it printed", () => {
    const kinds = ["passed", "failed", "skipped", "error", "pending", "pass", "fail", "runs"];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom(...kinds)), {
          maxLength: 8,
        }),
        (items) => {
          const line = items.map(([n, k]) => `${n} ${k}`).join(", ");
          const summary = testSummary(`${line} in 0.1s`);
          if (summary === null) return true;
          return summary.match(/\d+/gu)!.every((n) => Number(n) <= MAX_COUNT);
        },
      ),
    );
  });
});
