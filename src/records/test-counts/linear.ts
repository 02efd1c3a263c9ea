// The runners' line patterns run on RE2's linear-time engine (re2js), as the agents' search
// patterns do (src/agents/fs/linear-regexp.ts): the output is a command's, so an agent can
// print any line it likes, and no line it prints may make a pattern backtrack. Each pattern
// is anchored at both ends and applied to one line of at most LINE_CHARS characters.

import { RE2JS } from "re2js";

export type LinePattern = RE2JS;

/** Compiles a pattern that must match a whole line. */
export function linePattern(source: string): LinePattern {
  return RE2JS.compile(source);
}

/** The groups of a whole-line match (index 0 the line), or null; an unmatched group is "". */
export function groups(pattern: LinePattern, line: string): string[] | null {
  const m = pattern.matcher(line);
  if (!m.matches()) return null;
  const out: string[] = [];
  for (let i = 0; i <= m.groupCount(); i += 1) out.push(m.group(i) ?? "");
  return out;
}

/** A count group as a number: at most seven digits by the pattern; "" is 0. */
export const int = (text: string | undefined): number =>
  text === undefined || text === "" ? 0 : Number(text);

/** Seven digits at most: a longer number is no count at all, not a huge one. */
export const N = String.raw`(\d{1,7})`;

/** The last line that holds `guard` (a cheap literal check first) and matches: its groups and index. */
export function lastMatch(
  lines: readonly string[],
  guard: (line: string) => boolean,
  pattern: LinePattern,
): { m: string[]; at: number } | null {
  for (let at = lines.length - 1; at >= 0; at -= 1) {
    const line = lines[at]!;
    if (!guard(line)) continue;
    const m = groups(pattern, line);
    if (m !== null) return { m, at };
  }
  return null;
}

/** Every line that holds `guard` and matches, in order: the sections a summed tally adds up. */
export function everyMatch(
  lines: readonly string[],
  guard: (line: string) => boolean,
  pattern: LinePattern,
): { m: string[]; at: number }[] {
  const found: { m: string[]; at: number }[] = [];
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at]!;
    if (!guard(line)) continue;
    const m = groups(pattern, line);
    if (m !== null) found.push({ m, at });
  }
  return found;
}
