// The runners' line patterns run on RE2's linear-time engine (re2js), as the agents' search
// patterns do (src/agents/fs/linear-regexp.ts): the output is a command's, so an agent can
// print any line it likes, and no line it prints may make a pattern backtrack. Each pattern
// is anchored at both ends and applied to one line of at most LINE_CHARS characters.

import { RE2JS } from "re2js";

/** A whole-line pattern, compiled when first matched. */
export interface LinePattern {
  matcher(line: string): ReturnType<RE2JS["matcher"]>;
}

/**
 * A pattern that must match a whole line. Compiled at its first match, not when its runner's
 * module loads: the ~20 runners' patterns cost ~30 ms of every process start (a profile of the
 * CLI's imports), and a command's output meets the few whose literal guard it holds.
 */
export function linePattern(source: string): LinePattern {
  let compiled: RE2JS | undefined;
  return { matcher: (line) => (compiled ??= RE2JS.compile(source)).matcher(line) };
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
