// A small glob dialect for the search tool: `*` and `?` stay within one path component,
// `**` crosses components, `[...]` and `{a,b}` as in a shell. A glob without `/` is
// matched against the file's name, as `*.ts` is meant. Globs compile to RE2 (see
// linear-regexp.ts), so `*a*a*a…*b` on a long name takes linear time instead of hanging the
// wake as a backtracking RegExp did.

import { compileLinear, LinearPatternError } from "./linear-regexp.js";

// Every character RE2 reads as syntax outside a class.
const SPECIAL = /[.+^$()|\\{}[\]*?]/u;

/** The glob as an RE2 source matching a whole path (or name). */
export function globToSource(glob: string): string {
  let source = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        source += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else {
        source += "[^/]*";
      }
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) {
        source += "\\[";
      } else {
        const body = glob.slice(i + 1, end).replace(/[\\[]/gu, "\\$&");
        source += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (char === "{") {
      braces += 1;
      source += "(?:";
    } else if (char === "}" && braces > 0) {
      braces -= 1;
      source += ")";
    } else if (char === "," && braces > 0) {
      source += "|";
    } else {
      source += SPECIAL.test(char) ? `\\${char}` : char;
    }
  }
  return source + ")".repeat(braces);
}

/** A matcher for one glob, compiled once; throws LinearPatternError for a malformed one. */
export function compileGlob(glob: string): (relativePath: string) => boolean {
  let pattern;
  try {
    pattern = compileLinear(globToSource(glob));
  } catch (error) {
    if (error instanceof LinearPatternError) {
      throw new LinearPatternError(`not a valid glob: ${error.message}`, { cause: error });
    }
    throw error;
  }
  const byName = !glob.includes("/");
  return (relativePath) =>
    pattern.testExact(
      byName ? relativePath.slice(relativePath.lastIndexOf("/") + 1) : relativePath,
    );
}

export function matchesGlob(relativePath: string, glob: string): boolean {
  return compileGlob(glob)(relativePath);
}
