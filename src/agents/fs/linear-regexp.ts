// Model-supplied patterns (search_files' regex and glob) run on RE2's linear-time engine
// (re2js, pinned in package.json): `(a+)+$` on a long line takes time proportional to the line,
// where JavaScript's backtracking RegExp hangs the whole wake. RE2's syntax is
// JavaScript's without what needs backtracking: no backreferences (`\1`, `\k<name>`), no
// lookahead or lookbehind, no `\uXXXX` (accepted here and rewritten as RE2's `\x{XXXX}`);
// https://github.com/google/re2/wiki/Syntax.

import { RE2JS, RE2JSSyntaxException } from "re2js";

export interface LinearRegExp {
  /** True when the pattern matches anywhere in `text` (unanchored). */
  test(text: string): boolean;
  /** True when the pattern matches all of `text`. */
  testExact(text: string): boolean;
}

export class LinearPatternError extends Error {
  override readonly name = "LinearPatternError";
}

/** Throws LinearPatternError with a one-line reason the agent can act on. */
export function compileLinear(
  source: string,
  options: { ignoreCase?: boolean } = {},
): LinearRegExp {
  try {
    return RE2JS.compile(jsEscapes(source), options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) {
      throw new LinearPatternError(explain(error.message), { cause: error });
    }
    throw error;
  }
}

/** `\uXXXX` and `\u{X…}` (JavaScript) as RE2's `\x{…}`; an escaped backslash stays one. */
function jsEscapes(source: string): string {
  return source.replace(
    /(?<!\\)((?:\\\\)*)\\u(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/g,
    (_match, before: string, braced: string | undefined, plain: string | undefined) =>
      `${before}\\x{${braced ?? plain ?? ""}}`,
  );
}

function explain(message: string): string {
  const detail = message.replace(/^error parsing regexp: /, "");
  if (/invalid escape sequence: `\\[1-9]/.test(message) || /`\\k/.test(message)) {
    return `backreferences (\\1, \\k<name>) are not supported: patterns run on a linear-time engine (RE2 syntax) (${detail})`;
  }
  if (/`\(\?[=!]/.test(message)) {
    return `lookahead ((?=…), (?!…)) is not supported: patterns run on a linear-time engine (RE2 syntax) (${detail})`;
  }
  if (/`\(\?<[=!]/.test(message)) {
    return `lookbehind ((?<=…), (?<!…)) is not supported: patterns run on a linear-time engine (RE2 syntax) (${detail})`;
  }
  return `not a valid RE2 regular expression: ${detail}`;
}
