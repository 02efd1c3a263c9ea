// CTest (CMake): "67% tests passed, 1 tests failed out of 3" (CMake's
// Source/CTest/cmCTestTestHandler.cxx; the sample in the tests is ctest 3.25's own output).

import { tally, type RunnerParser } from "./counts.js";
import { groups, int, linePattern, N } from "./linear.js";

const CTEST = linePattern(String.raw`\d{1,3}% tests passed, ${N} tests? failed out of ${N}`);

export const ctest: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.includes("% tests passed, ")) continue;
    const m = groups(CTEST, line);
    if (m === null) continue;
    const [failed, total] = [int(m[1]), int(m[2])];
    return { counts: tally(Math.max(0, total - failed), failed, 0), at: i, additive: false };
  }
  return null;
};
