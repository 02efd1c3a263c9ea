// Searching file contents for an agent's tool: plain text or a regular expression, line by
// line, inside the boundary, skipping `.git`, links, binary files and oversized files.
// Patterns and globs run in linear time (linear-regexp.ts), and the whole search has a
// deadline: a search that would take longer is a tool error the agent sees, never a stalled
// wake.

import { constants, realpathSync, type Stats } from "node:fs";
import { lstat, open, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { BoundaryError } from "../boundary/boundary-error.js";
import { resolveInWorkspace } from "../boundary/resolve-in-workspace.js";
import { openDirInside, type AnchoredDir } from "./anchored-dir.js";
import { FileToolError } from "./file-tool-error.js";
import type { FileToolOptions } from "./file-tool-options.js";
import { compileGlob } from "./glob-to-regexp.js";
import { compileLinear, LinearPatternError } from "./linear-regexp.js";
import { verifyOpened } from "./verify-opened.js";
import { walkEntries } from "./walk-entries.js";

export const DEFAULT_SEARCH_LIMIT = 100;
export const DEFAULT_SEARCH_FILE_BYTES = 1024 * 1024;
/** A search that has not finished by then stops with an error naming how far it got. */
export const DEFAULT_SEARCH_DEADLINE_MS = 20_000;
/** How many lines are matched between two looks at the clock. */
const LINES_PER_CLOCK_CHECK = 1024;
// git's heuristic: a NUL byte in the first 8000 bytes makes a file binary.
const BINARY_SNIFF_BYTES = 8000;
const MAX_LINE_CHARS = 500;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface SearchMatch {
  /** Root-relative path with `/` separators. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The matching line, cut at 500 characters. */
  text: string;
}

export interface SearchFilesOptions extends FileToolOptions {
  /** File or directory to search, relative to the root; the whole workspace by default. */
  path?: string;
  /** Only files matching this glob (against the name when it has no `/`). */
  glob?: string;
  limit?: number;
  /** Treat `pattern` as a regular expression (RE2 syntax) instead of plain text. */
  regex?: boolean;
  ignoreCase?: boolean;
  /** Larger files are skipped (and counted in `skipped`). */
  maxFileBytes?: number;
  /** Milliseconds the whole search may take. */
  deadlineMs?: number;
  /** Monotonic milliseconds (tests pass a clock that jumps). */
  now?: () => number;
  /** Stops the search (the turn is being cancelled) with the signal's reason. */
  signal?: AbortSignal;
}

export interface SearchFilesResult {
  matches: SearchMatch[];
  /** True when `limit` cut the results short. */
  truncated: boolean;
  /** Files not searched: binary, too large, hard-linked or changed while searching. */
  skipped: number;
  /** Folders at the depth bound (MAX_TREE_DEPTH) whose content is not searched. */
  tooDeep: number;
}

export async function searchFiles(
  root: string,
  pattern: string,
  options: SearchFilesOptions = {},
): Promise<SearchFilesResult> {
  const requested = options.path ?? "";
  const test = compile(pattern, options);
  const inGlob = options.glob === undefined ? () => true : globMatcher(options.glob);
  const now = options.now ?? (() => performance.now());
  const deadline = now() + (options.deadlineMs ?? DEFAULT_SEARCH_DEADLINE_MS);
  let filesSearched = 0;
  const checkDeadline = () => {
    options.signal?.throwIfAborted();
    if (now() <= deadline) return;
    const seconds = Math.round((options.deadlineMs ?? DEFAULT_SEARCH_DEADLINE_MS) / 1000);
    throw new FileToolError(
      "timed-out",
      requested,
      `the search was stopped after ${seconds} s (${filesSearched} files searched); narrow it with path or glob, or a simpler pattern`,
    );
  };
  const real = resolveInWorkspace(root, requested, { protect: options.protect ?? [] });
  const rootReal = realpathSync(root);
  await options.seam?.beforeOpen?.(real);
  const target = await lstat(real).catch(() => undefined);
  if (target === undefined) {
    throw new FileToolError("not-found", requested, "no such file or directory");
  }
  const single = !target.isDirectory();
  const relative = path.relative(rootReal, single ? path.dirname(real) : real);
  const dir = await openDirInside(rootReal, relative, {
    create: false,
    requested,
    pathOnly: options.seam?.pathOnly ?? false,
  });

  const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
  const result: SearchFilesResult = { matches: [], truncated: false, skipped: 0, tooDeep: 0 };
  const searchOne = async (parent: AnchoredDir, name: string, relativePath: string) => {
    if (!inGlob(relativePath)) return true;
    checkDeadline();
    const text = await readText(parent, name, requested, options);
    if (text === undefined) {
      result.skipped += 1;
      return true;
    }
    filesSearched += 1;
    const lines = text.split(/\r?\n/u);
    for (let index = 0; index < lines.length; index += 1) {
      if (index % LINES_PER_CLOCK_CHECK === LINES_PER_CLOCK_CHECK - 1) checkDeadline();
      const line = lines[index] as string;
      if (!test(line)) continue;
      if (result.matches.length === limit) {
        result.truncated = true;
        return false;
      }
      result.matches.push({
        path: relativePath,
        line: index + 1,
        text: line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line,
      });
    }
    return true;
  };

  try {
    if (single) {
      await searchOne(dir, path.basename(real), path.relative(rootReal, real));
      return result;
    }
    for await (const entry of walkEntries(dir, relative, {
      recursive: true,
      requested,
      onTooDeep: () => (result.tooDeep += 1),
    })) {
      if (entry.type !== "file") continue;
      if (!(await searchOne(entry.parent, entry.name, entry.path))) break;
    }
  } finally {
    await dir.close();
  }
  return result;
}

function compile(pattern: string, options: SearchFilesOptions): (line: string) => boolean {
  if (pattern === "") {
    throw new FileToolError("invalid-pattern", pattern, "the search pattern is empty");
  }
  if (!options.regex) {
    if (!options.ignoreCase) return (line) => line.includes(pattern);
    const folded = pattern.toLowerCase();
    return (line) => line.toLowerCase().includes(folded);
  }
  try {
    const expression = compileLinear(pattern, { ignoreCase: options.ignoreCase ?? false });
    return (line) => expression.test(line);
  } catch (error) {
    if (!(error instanceof LinearPatternError)) throw error;
    throw new FileToolError("invalid-pattern", pattern, error.message, { cause: error });
  }
}

function globMatcher(glob: string): (relativePath: string) => boolean {
  try {
    return compileGlob(glob);
  } catch (error) {
    if (!(error instanceof LinearPatternError)) throw error;
    throw new FileToolError("invalid-pattern", glob, error.message, { cause: error });
  }
}

/** The file's text, or undefined when it must be skipped. */
async function readText(
  parent: AnchoredDir,
  name: string,
  requested: string,
  options: SearchFilesOptions,
): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(parent.at(name), READ_FLAGS);
  } catch {
    return undefined; // vanished or became a link since the listing: nothing to search
  }
  try {
    let stats: Stats;
    try {
      stats = await verifyOpened(handle, `${parent.realPath}/${name}`, requested);
    } catch (error) {
      if (error instanceof BoundaryError) return undefined;
      throw error;
    }
    if (!stats.isFile() || stats.size > (options.maxFileBytes ?? DEFAULT_SEARCH_FILE_BYTES)) {
      return undefined;
    }
    const bytes = await handle.readFile();
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
    return bytes.toString("utf8");
  } finally {
    await handle.close();
  }
}
