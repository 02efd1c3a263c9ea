// PHPUnit: "OK (2 tests, 2 assertions)" when all pass, else "Tests: 2, Assertions: 2,
// Failures: 1." with one "Name: N" pair per kind of outcome that occurred (docs.phpunit.de,
// "Writing Tests for PHPUnit"; sebastianbergmann/phpunit-documentation-english
// src/writing-tests-for-phpunit.rst).

import { tally, type RunnerParser } from "./counts.js";
import { groups, int, linePattern, N } from "./linear.js";

const OK = linePattern(String.raw`OK \(${N} tests?, \d{1,7} assertions?\)`);
const TALLY = linePattern(String.raw`Tests: ${N}((?:, [A-Za-z ]{1,30}: \d{1,7}){1,14})\.?`);

export const phpunit: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (line.startsWith("OK (")) {
      const ok = groups(OK, line);
      if (ok !== null) return { counts: tally(int(ok[1]), 0, 0), at: i, additive: false };
      continue;
    }
    if (!line.startsWith("Tests: ")) continue;
    const m = groups(TALLY, line);
    if (m === null) continue;
    const kinds = new Map<string, number>();
    for (const pair of m[2]!.slice(2).split(", ")) {
      const [name, value] = pair.split(": ");
      kinds.set(name!, int(value));
    }
    const n = (name: string) => kinds.get(name) ?? 0;
    if (!kinds.has("Assertions")) continue;
    const tests = int(m[1]);
    // Warnings, deprecations, notices and risky tests ran to the end; they count as passed.
    const failed = n("Failures") + n("Errors");
    const skipped = n("Skipped") + n("Incomplete");
    return {
      counts: tally(Math.max(0, tests - failed - skipped), failed, skipped),
      at: i,
      additive: false,
    };
  }
  return null;
};
