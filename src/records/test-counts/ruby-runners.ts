// Ruby's runners: RSpec and minitest (which Rails' `bin/rails test` runs).

import { tally, type RunnerParser } from "./counts.js";
import { groups, int, linePattern, N } from "./linear.js";

// "1 example, 0 failures" (rspec/rspec-core README.md); then ", 1 pending" and ", 1 error
// occurred outside of examples" when there are any.
const RSPEC = linePattern(
  String.raw`${N} examples?, ${N} failures?(?:, ${N} pending)?(?:, ${N} errors? occurred outside of examples)?`,
);

export const rspec: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.includes(" example")) continue;
    const m = groups(RSPEC, line);
    if (m === null) continue;
    const [examples, failures, pending, outside] = [int(m[1]), int(m[2]), int(m[3]), int(m[4])];
    return {
      counts: tally(Math.max(0, examples - failures - pending), failures + outside, pending),
      at: i,
      additive: false,
    };
  }
  return null;
};

// "%d runs, %d assertions, %d failures, %d errors, %d skips" (minitest lib/minitest.rb,
// SummaryReporter#summary); minitest 4 and test-unit said "tests" for "runs".
const MINITEST = linePattern(
  String.raw`${N} (?:runs|tests), \d{1,7} assertions, ${N} failures, ${N} errors, ${N} skips`,
);

export const minitest: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.includes(" assertions, ")) continue;
    const m = groups(MINITEST, line);
    if (m === null) continue;
    const [runs, failures, errors, skips] = [int(m[1]), int(m[2]), int(m[3]), int(m[4])];
    return {
      counts: tally(Math.max(0, runs - failures - errors - skips), failures + errors, skips),
      at: i,
      additive: false,
    };
  }
  return null;
};
