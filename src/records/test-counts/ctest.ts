// CTest (CMake): "67% tests passed, 1 tests failed out of 3" (CMake's
// Source/CTest/cmCTestTestHandler.cxx; the sample in the tests is ctest 3.25's own output).

import { tally, type RunnerParser } from "./counts.js";
import { int, lastMatch, linePattern, N } from "./linear.js";

const CTEST = linePattern(String.raw`\d{1,3}% tests passed, ${N} tests? failed out of ${N}`);

export const ctest: RunnerParser = (lines) => {
  const found = lastMatch(lines, (l) => l.includes("% tests passed, "), CTEST);
  if (found === null) return null;
  const [failed, total] = [int(found.m[1]), int(found.m[2])];
  return { counts: tally(Math.max(0, total - failed), failed, 0), at: found.at, additive: false };
};
