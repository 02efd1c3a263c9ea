// Rust's runners: libtest under `cargo test` (one "test result:" line per test binary and per
// crate's doc-tests, summed) and cargo-nextest (one "Summary" line for the whole run).

import { summed, tally, type RunnerParser } from "./counts.js";
import { everyMatch, groups, int, lastMatch, linePattern, N } from "./linear.js";

// "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in
// 0.00s" (rust-lang/book listings/ch11-writing-automated-tests/*/output.txt).
const LIBTEST = linePattern(
  String.raw`test result: (?:ok|FAILED)\. ${N} passed; ${N} failed; ${N} ignored; ${N} measured; ${N} filtered out(?:; finished in \d{1,7}(?:\.\d{1,4})?s)?`,
);

export const cargoTest: RunnerParser = (lines) =>
  summed(
    everyMatch(lines, (l) => l.startsWith("test result: "), LIBTEST).map(({ m, at }) => ({
      counts: tally(int(m[1]), int(m[2]), int(m[3])),
      at,
    })),
  );

// "Summary [   2.000s] 5 tests run: 5 passed, 0 skipped" and "Summary [  15.750s] 8/10 tests
// run: 5 passed (1 slow, 1 flaky, 1 leaky), 2 failed, 1 exec failed, 1 timed out, 2 skipped"
// (nextest-rs/nextest nextest-runner/src/reporter/displayer/snapshots/
// nextest_runner__reporter__displayer__imp__tests__summary_line_output.snap).
const NEXTEST = linePattern(
  String.raw`Summary \[ *\d{1,7}\.\d{1,4}s\] (?:\d{1,7}/)?\d{1,7} tests? run: (${N} passed(?: \([a-z0-9, ]{0,80}\))?(?:, \d{1,7} [a-z ]{1,20}){0,8})(?:; [a-z ]{0,60})?`,
);
const ITEM = linePattern(String.raw`${N} ([a-z ]{1,20})`);

export const nextest: RunnerParser = (lines) => {
  const found = lastMatch(lines, (l) => l.startsWith("Summary ["), NEXTEST);
  if (found === null) return null;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  // The parenthesis after "passed" qualifies the passes (slow, flaky, leaky): not a count.
  for (const item of found.m[1]!.replace(/ \([^)]*\)/u, "").split(", ")) {
    const parts = groups(ITEM, item);
    if (parts === null) continue;
    const [, count, word] = parts;
    if (word === "passed") passed += int(count);
    else if (word === "skipped") skipped += int(count);
    // "failed", "exec failed", "timed out": a test that did not pass.
    else if (word!.includes("fail") || word === "timed out") failed += int(count);
  }
  return { counts: tally(passed, failed, skipped), at: found.at, additive: false };
};
