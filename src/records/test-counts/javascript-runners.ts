// JavaScript's runners: vitest, jest, mocha, bun's and node's own test runners.

import { tally, type RunnerParser } from "./counts.js";
import { groups, int, lastMatch, linePattern, N } from "./linear.js";

/** "N word" items ("1 failed", "31 passed") as a map; repeated words add up. */
function items(list: readonly string[]): (word: string) => number {
  const seen = new Map<string, number>();
  for (const item of list) {
    const [count, word] = item.split(" ");
    if (word !== undefined) seen.set(word, (seen.get(word) ?? 0) + int(count));
  }
  return (word) => seen.get(word) ?? 0;
}

// "      Tests  1 failed | 31 passed (32)" (vitest-dev/vitest docs/guide/index.md shows
// "Tests  1 passed (1)"); skipped and todo tests are items too.
const VITEST = linePattern(
  String.raw`Tests {1,8}((?:\d{1,7} [a-z]{1,10} \| ){0,6}\d{1,7} [a-z]{1,10}) \(\d{1,7}\)`,
);

export const vitest: RunnerParser = (lines) => {
  const found = lastMatch(lines, (l) => l.startsWith("Tests "), VITEST);
  if (found === null) return null;
  const n = items(found.m[1]!.split(" | "));
  const counts = tally(n("passed"), n("failed"), n("skipped") + n("todo"));
  return { counts, at: found.at, additive: false };
};

// "Tests:       1 failed, 1 passed, 2 total" (jestjs/jest packages/jest-reporters/src/
// getSummary.ts: the non-zero kinds, then the total).
const JEST = linePattern(String.raw`Tests: {1,16}((?:\d{1,7} [a-z]{1,10}, ){0,6})\d{1,7} total`);

export const jest: RunnerParser = (lines) => {
  const found = lastMatch(lines, (l) => l.startsWith("Tests:"), JEST);
  if (found === null) return null;
  const n = items(found.m[1]!.split(", ").filter((s) => s !== ""));
  const counts = tally(n("passed"), n("failed"), n("skipped") + n("todo"));
  return { counts, at: found.at, additive: false };
};

// Mocha's epilogue: "  3 passing (12ms)", then "  1 pending" and "  2 failing" when any
// (mochajs/mocha lib/reporters/base.js, Base.prototype.epilogue).
const MOCHA_PASSING = linePattern(String.raw`${N} passing \(\d{1,7}(?:ms|s|m|h)\)`);
const MOCHA_OTHER = linePattern(String.raw`${N} (pending|failing)`);

export const mocha: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.includes(" passing (")) continue;
    const m = groups(MOCHA_PASSING, line);
    if (m === null) continue;
    let pending = 0;
    let failing = 0;
    let at = i;
    for (let j = i + 1; j < Math.min(lines.length, i + 5); j += 1) {
      const other = groups(MOCHA_OTHER, lines[j]!);
      if (other === null) continue;
      if (other[2] === "pending") pending = int(other[1]);
      else failing = int(other[1]);
      at = j;
    }
    return { counts: tally(int(m[1]), failing, pending), at, additive: false };
  }
  return null;
};

// bun test: " 2 pass", " 8 fail" (and "skip", "todo", "N expect() calls") above "Ran 10 tests
// across 2 files. [50.00ms]" (oven-sh/bun docs/cli/test.md).
const BUN_RAN = linePattern(
  String.raw`Ran ${N} tests? across \d{1,7} files?\.(?: \[\d{1,9}(?:\.\d{1,4})?m?s\])?`,
);
const BUN_KIND = linePattern(String.raw`${N} (pass|fail|skip|todo)`);

export const bunTest: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.startsWith("Ran ")) continue;
    if (groups(BUN_RAN, line) === null) continue;
    const kinds = { pass: 0, fail: 0, skip: 0, todo: 0 };
    let any = false;
    for (let j = i - 1; j >= Math.max(0, i - 8); j -= 1) {
      const kind = groups(BUN_KIND, lines[j]!);
      if (kind === null) continue;
      kinds[kind[2] as keyof typeof kinds] = int(kind[1]);
      any = true;
    }
    if (!any) continue;
    return {
      counts: tally(kinds.pass, kinds.fail, kinds.skip + kinds.todo),
      at: i,
      additive: false,
    };
  }
  return null;
};

// node --test: the spec reporter's "ℹ tests 6", "ℹ pass 1", "ℹ fail 3", "ℹ cancelled 1",
// "ℹ skipped 1", "ℹ todo 0" (nodejs/node test/fixtures/test-runner/output/
// default_output.snapshot); the TAP reporter's "# tests 6", "# pass 1"… A cancelled test did
// not pass: it counts as failed.
const NODE_LINE = linePattern(
  String.raw`(?:ℹ|#) (tests|suites|pass|fail|cancelled|skipped|todo) ${N}`,
);

export const nodeTest: RunnerParser = (lines) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    if (!line.includes(" pass ")) continue;
    const pass = groups(NODE_LINE, line);
    if (pass === null || pass[1] !== "pass") continue;
    // The other kinds sit just above and below "pass", in the reporter's fixed order.
    const kinds = new Map<string, number>();
    let at = i;
    for (let j = Math.max(0, i - 3); j < Math.min(lines.length, i + 6); j += 1) {
      const kind = groups(NODE_LINE, lines[j]!);
      if (kind === null) continue;
      kinds.set(kind[1]!, int(kind[2]));
      if (j > at) at = j;
    }
    const n = (k: string) => kinds.get(k) ?? 0;
    return {
      counts: tally(n("pass"), n("fail") + n("cancelled"), n("skipped") + n("todo")),
      at,
      additive: false,
    };
  }
  return null;
};
