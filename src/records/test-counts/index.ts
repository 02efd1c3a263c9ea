// A test runner's count from a command's output: the one entry point. Each runner family
// has its own parser; every parser reads the same bounded, colour-free lines, and the runner
// whose summary came last in the output is the one shown (`npm test` that runs a linter, then
// vitest, is vitest's count). Output no parser recognises has no count: the evidence then
// says "no count" beside the exit code, never a pass of unknown size.
//
// The output is the command's, so an agent can print any of these lines itself: the count is
// shown beside the exit code the engine saw, never instead of it.

import { sayCounts, type Found, type RunnerParser } from "./counts.js";
import { ctest } from "./ctest.js";
import { goTest } from "./go-test.js";
import { bunTest, jest, mocha, nodeTest, vitest } from "./javascript-runners.js";
import { gradle, surefire } from "./jvm-runners.js";
import { outputLines } from "./output-lines.js";
import { phpunit } from "./phpunit.js";
import { plainLine } from "./plain-line.js";
import { pytest, unittest } from "./python-runners.js";
import { minitest, rspec } from "./ruby-runners.js";
import { cargoTest, nextest } from "./rust-runners.js";

export { MAX_COUNT } from "./counts.js";

/** Every family, most specific first: on a tie of position the first one wins. */
const PARSERS: readonly RunnerParser[] = [
  cargoTest,
  nextest,
  pytest,
  unittest,
  goTest,
  surefire,
  gradle,
  rspec,
  minitest,
  phpunit,
  ctest,
  vitest,
  jest,
  mocha,
  bunTest,
  nodeTest,
  plainLine,
];

export interface SummaryOptions {
  /** The sandbox cut the output: a count summed over sections would be short, so none is given. */
  truncated?: boolean;
}

/** "32 passed", "1 failed, 31 passed, 2 skipped"; null when no runner's summary is found. */
export function testSummary(
  output: string | readonly string[],
  options: SummaryOptions = {},
): string | null {
  const lines = outputLines(typeof output === "string" ? [output] : output);
  let best: Found | null = null;
  for (const parse of PARSERS) {
    const found = parse(lines);
    if (found === null || (found.additive && options.truncated === true)) continue;
    if (best === null || found.at > best.at) best = found;
  }
  return best === null ? null : sayCounts(best.counts);
}
