// The plain line a project's own script prints ("12 passed, 0 failed", ", 1 skipped" may
// follow), as this repository's .ci/run does; a leading "label: " is allowed.

import { tally, type RunnerParser } from "./counts.js";
import { int, lastMatch, linePattern, N } from "./linear.js";

const PLAIN = linePattern(String.raw`(?:\w{1,20}: )?${N} passed, ${N} failed(?:, ${N} skipped)?`);

export const plainLine: RunnerParser = (lines) => {
  const found = lastMatch(lines, (l) => l.includes(" passed, "), PLAIN);
  if (found === null) return null;
  const { m, at } = found;
  return { counts: tally(int(m[1]), int(m[2]), int(m[3])), at, additive: false };
};
