// Ruby's runners: RSpec and minitest (which Rails' `bin/rails test` runs).

import { tally, type RunnerParser } from "./counts.js";
import { int, lastMatch, linePattern, N } from "./linear.js";

// "1 example, 0 failures" (rspec/rspec-core README.md); then ", 1 pending" and ", 1 error
// occurred outside of examples" when there are any.
const RSPEC = linePattern(
  String.raw`${N} examples?, ${N} failures?(?:, ${N} pending)?(?:, ${N} errors? occurred outside of examples)?`,
);

export const rspec: RunnerParser = (lines) => {
  const found = lastMatch(lines, (l) => l.includes(" example"), RSPEC);
  if (found === null) return null;
  const [examples, failures, pending, outside] = [1, 2, 3, 4].map((i) => int(found.m[i]));
  return {
    counts: tally(Math.max(0, examples! - failures! - pending!), failures! + outside!, pending!),
    at: found.at,
    additive: false,
  };
};

// "%d runs, %d assertions, %d failures, %d errors, %d skips" (minitest lib/minitest.rb,
// SummaryReporter#summary); minitest 4 and test-unit said "tests" for "runs".
const MINITEST = linePattern(
  String.raw`${N} (?:runs|tests), \d{1,7} assertions, ${N} failures, ${N} errors, ${N} skips`,
);

export const minitest: RunnerParser = (lines) => {
  const found = lastMatch(lines, (l) => l.includes(" assertions, "), MINITEST);
  if (found === null) return null;
  const [runs, failures, errors, skips] = [1, 2, 3, 4].map((i) => int(found.m[i]));
  return {
    counts: tally(Math.max(0, runs! - failures! - errors! - skips!), failures! + errors!, skips!),
    at: found.at,
    additive: false,
  };
};
