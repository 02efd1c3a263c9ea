// What a test runner's output says it ran, and how that is said to a person. Every number
// comes from text a command printed — text an agent can forge — so each is parsed with at
// most seven digits and every sum is capped: a forged "9999999 passed" repeated a thousand
// times reads "9999999+ passed", never a ten-digit claim.

/** The largest count shown as is; a larger sum is shown as "9999999+". */
export const MAX_COUNT = 9_999_999;

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Go's plain output counts packages, not tests. */
  unit?: "package";
}

/** A runner's tally and where its last summary line was, so the last runner to speak wins. */
export interface Found {
  counts: Counts;
  /** The index of the runner's last summary line in the lines read. */
  at: number;
  /**
   * True when the tally is a sum over sections or lines (cargo's crates, Maven's modules, go's
   * packages): output cut short would under-count, so a cut output gives no count at all.
   */
  additive: boolean;
}

/** A line parser: the lines read (ANSI-free, trimmed), and what this runner family found. */
export type RunnerParser = (lines: readonly string[]) => Found | null;

/** Non-negative, capped; NaN (a group that did not match) is 0. */
export function clampCount(n: number): number {
  if (!Number.isFinite(n) || n < 0) return 0;
  return Math.min(Math.floor(n), MAX_COUNT + 1);
}

export function tally(passed: number, failed: number, skipped: number): Counts {
  return { passed: clampCount(passed), failed: clampCount(failed), skipped: clampCount(skipped) };
}

/** Sums tallies (capped): cargo's crates, Maven's modules, Gradle's test tasks. */
export function sumCounts(list: readonly Counts[]): Counts {
  const sum = (pick: (c: Counts) => number) => clampCount(list.reduce((n, c) => n + pick(c), 0));
  return {
    passed: sum((c) => c.passed),
    failed: sum((c) => c.failed),
    skipped: sum((c) => c.skipped),
  };
}

const shown = (n: number) => (n > MAX_COUNT ? `${MAX_COUNT}+` : String(n));

/** "1 failed, 31 passed, 2 skipped"; "1 package(s) failed, 2 package(s) ok" for go's packages. */
export function sayCounts(c: Counts): string {
  if (c.unit === "package") {
    return `${c.failed > 0 ? `${shown(c.failed)} package(s) failed, ` : ""}${shown(c.passed)} package(s) ok`;
  }
  const parts: string[] = [];
  if (c.failed > 0) parts.push(`${shown(c.failed)} failed`);
  parts.push(`${shown(c.passed)} passed`);
  if (c.skipped > 0) parts.push(`${shown(c.skipped)} skipped`);
  return parts.join(", ");
}

/** A tally summed over its sections (null when there are none): cargo's crates, Maven's modules. */
export function summed(sections: readonly { counts: Counts; at: number }[]): Found | null {
  const last = sections.at(-1);
  if (last === undefined) return null;
  return { counts: sumCounts(sections.map((s) => s.counts)), at: last.at, additive: true };
}
