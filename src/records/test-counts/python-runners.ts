// Python's runners: pytest (pytest-xdist prints pytest's own summary line after its workers'
// progress) and the standard library's unittest.

import { tally, type Found, type RunnerParser } from "./counts.js";
import { groups, int, lastMatch, linePattern, N } from "./linear.js";

const ITEMS = String.raw`((?:\d{1,7} [a-z]{1,12}, ){0,12}\d{1,7} [a-z]{1,12}|no tests ran)`;
const TIME = String.raw`in \d{1,7}(?:\.\d{1,4})?(?:s| seconds)(?: \(\d{1,3}:\d\d:\d\d\))?`;
// "===== 3 passed, 1 failed in 0.12s =====" and, under -q, the same without the bars; older
// pytest says "in 0.12 seconds" (pytest-dev/pytest doc/en/getting-started.rst).
const PYTEST = linePattern(String.raw`(?:=+ )?${ITEMS} ${TIME}(?: =+)?`);

/** pytest's final line; its items are "N word" pairs in any order. */
export const pytest: RunnerParser = (lines) => {
  const found = lastMatch(lines, (l) => l.includes(" in "), PYTEST);
  if (found === null) return null;
  const items = new Map<string, number>();
  if (found.m[1] !== "no tests ran") {
    for (const item of found.m[1]!.split(", ")) {
      const [count, word] = item.split(" ");
      items.set(word!, (items.get(word!) ?? 0) + int(count));
    }
  }
  const n = (word: string) => items.get(word) ?? 0;
  return {
    counts: tally(n("passed"), n("failed") + n("error") + n("errors"), n("skipped")),
    at: found.at,
    additive: false,
  };
};

const RAN = linePattern(String.raw`Ran ${N} tests? in \d{1,7}(?:\.\d{1,4})?s`);
// unittest's verdict line (cpython Lib/unittest/runner.py, TextTestRunner.run): "OK" or
// "FAILED", or "NO TESTS RAN" (3.12+), then "(failures=1, errors=1, skipped=2, expected
// failures=1, unexpected successes=1)" when any of them is not zero.
const VERDICT = linePattern(
  String.raw`(OK|FAILED|NO TESTS RAN)(?: \(((?:[a-z ]{1,24}=\d{1,7}, ){0,6}[a-z ]{1,24}=\d{1,7})\))?`,
);

/** "Ran 4 tests in 0.001s", a blank line, "FAILED (failures=1, errors=1, skipped=1)". */
export const unittest: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.startsWith("Ran ")) continue;
    const ran = groups(RAN, line);
    if (ran === null) continue;
    let verdictAt = i + 1;
    while (verdictAt < lines.length && verdictAt <= i + 3 && lines[verdictAt] === "")
      verdictAt += 1;
    const verdict = verdictAt < lines.length ? groups(VERDICT, lines[verdictAt]!) : null;
    if (verdict === null) continue;
    const info = new Map<string, number>();
    for (const pair of verdict[2] === "" ? [] : verdict[2]!.split(", ")) {
      const [key, value] = pair.split("=");
      info.set(key!, int(value));
    }
    const n = (key: string) => info.get(key) ?? 0;
    const run = int(ran[1]);
    // A failing sub-test counts once per sub-test, so failures can exceed the tests run.
    const failed = n("failures") + n("errors") + n("unexpected successes");
    const skipped = n("skipped");
    return {
      counts: tally(Math.max(0, run - failed - skipped), failed, skipped),
      at: verdictAt,
      additive: false,
    } satisfies Found;
  }
  return null;
};
