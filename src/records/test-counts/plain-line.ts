// The plain line a project's own script prints ("12 passed, 0 failed", ", 1 skipped" may
// follow), as this repository's .ci/run does; a leading "label: " is allowed.

import { tally, type RunnerParser } from "./counts.js";
import { groups, int, linePattern, N } from "./linear.js";

const PLAIN = linePattern(String.raw`(?:\w{1,20}: )?${N} passed, ${N} failed(?:, ${N} skipped)?`);

export const plainLine: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.includes(" passed, ")) continue;
    const m = groups(PLAIN, line);
    if (m === null) continue;
    return { counts: tally(int(m[1]), int(m[2]), int(m[3])), at: i, additive: false };
  }
  return null;
};
