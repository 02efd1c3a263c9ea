// The pre-tool-use boundary check (docs/protocol.md#workspaces): every path an agent's tool touches
// is resolved here first, the way the kernel would resolve it, and refused if it would land outside
// the workspace, in `.git`, on a system tree, on a hard link, or (for writes) on a protected
// prefix. The file operations re-check after opening, because this is a check at one moment and the
// filesystem can change before the use (see src/agents/fs).

import { lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";
import { BoundaryError, type BoundaryReason } from "./boundary-error.js";
import { isGitComponent } from "./is-git-component.js";
import { isProtected } from "./is-protected.js";
import { MAX_TREE_DEPTH, MAX_TREE_PATH_BYTES, treeLimitExceeded } from "./tree-limits.js";

export interface ResolveOptions {
  /** Writes are also refused on protected prefixes, on the root itself, and for "". */
  forWrite?: boolean;
  /** Root-relative prefixes that may be read but not written (the engine passes `.cfa/`). */
  protect?: readonly string[];
  /**
   * Refuse a symbolic link anywhere on the path, even one that stays inside: the engine's
   * own records and artifacts are regular files at fixed paths, so a link there is an
   * agent's doing (`ln -sfn /proc/self/environ PLAN.md` would have the engine post its
   * own environment).
   */
  noLinks?: boolean;
}

// PATH_MAX and NAME_MAX on Linux; longer input is refused before it reaches a syscall.
const MAX_PATH_BYTES = 4096;
const MAX_COMPONENT_BYTES = 255;
// Linux follows at most 40 links in one lookup (MAXSYMLINKS); so do we.
const MAX_LINKS = 40;
const SYSTEM_TREES = ["/proc", "/dev", "/sys"];

/** One step of the walk; `check` marks where a requested component is fully resolved. */
type Step = { kind: "part"; name: string; check: boolean } | { kind: "check" };

/**
 * Resolves `requested` (relative to `root`, or absolute under it) to an absolute path with
 * no symbolic link along its existing prefix, or throws BoundaryError saying why not.
 * The path need not exist: the missing tail is taken literally, as a create would.
 */
export function resolveInWorkspace(
  root: string,
  requested: string,
  options: ResolveOptions = {},
): string {
  const refuse = (reason: BoundaryReason, detail: string, cause?: unknown): BoundaryError =>
    new BoundaryError(String(requested), reason, detail, cause === undefined ? {} : { cause });

  if (typeof requested !== "string") throw refuse("invalid-path", "the path is not a string");
  if (requested.includes("\0")) throw refuse("invalid-path", "the path contains a NUL byte");
  if (Buffer.byteLength(requested) > MAX_PATH_BYTES) {
    throw refuse("too-long", `the path is longer than ${MAX_PATH_BYTES} bytes`);
  }
  const parts = requested.split("/");
  if (parts.some((part) => Buffer.byteLength(part) > MAX_COMPONENT_BYTES)) {
    throw refuse("too-long", `a path component is longer than ${MAX_COMPONENT_BYTES} bytes`);
  }
  if (parts.every((part) => part === "" || part === ".") && !path.isAbsolute(requested)) {
    if (options.forWrite) throw refuse("empty", "an empty path names no file to write");
  }
  if (parts[0]?.startsWith("~")) {
    throw refuse("home", "`~` is not expanded here; give a path relative to the workspace root");
  }
  if (parts.some(isGitComponent)) {
    throw refuse("git-dir", "paths inside .git are never readable or writable by tools");
  }

  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch (error) {
    throw refuse("unreadable", `the workspace root ${root} cannot be resolved`, error);
  }

  const relativeParts = relativeToRoot(requested, root, rootReal, refuse);

  const steps: Step[] = relativeParts.map((name) => ({ kind: "part", name, check: true }));
  let current = rootReal;
  let exists = true;
  // The first missing path on the way; `..` back above it returns to existing ground.
  let missing = "";
  let stats: Stats | undefined = undefined;
  let links = 0;

  const ensureInside = (): void => {
    if (underAny(current, SYSTEM_TREES)) {
      throw refuse("system-path", "it resolves into /proc, /dev or /sys");
    }
    if (!isInside(rootReal, current)) throw refuse("outside", "resolves outside the workspace");
  };

  for (let step = steps.shift(); step !== undefined; step = steps.shift()) {
    if (step.kind === "check") {
      ensureInside();
      continue;
    }
    const { name, check } = step;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      current = path.dirname(current);
      stats = undefined;
      if (!exists && current.length < missing.length) exists = true;
      if (check) ensureInside();
      continue;
    }
    const next = current === "/" ? `/${name}` : `${current}/${name}`;
    if (!exists) {
      // Nothing below a missing directory can be a link, so the rest is taken literally.
      current = next;
      if (check) ensureInside();
      continue;
    }
    try {
      stats = lstatSync(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        throw refuse("unreadable", `${code ?? "an error"} while resolving it`, error);
      }
      exists = false;
      missing = next;
      stats = undefined;
      current = next;
      if (check) ensureInside();
      continue;
    }
    if (stats.isSymbolicLink()) {
      if (options.noLinks) {
        throw refuse(
          "link",
          `${path.relative(rootReal, next) || next} is a symbolic link; only regular files and folders are read or written here`,
        );
      }
      links += 1;
      if (links > MAX_LINKS) {
        throw refuse("symlink-loop", `more than ${MAX_LINKS} symbolic links to follow`);
      }
      let target: string;
      try {
        target = readlinkSync(next);
      } catch (error) {
        throw refuse("unreadable", "a symbolic link on the way cannot be read", error);
      }
      // A link's target is resolved like the rest of the path, dangling or not: the place
      // it names is where a write through it would land.
      if (target.startsWith("/")) current = "/";
      const targetSteps: Step[] = target
        .split("/")
        .map((part) => ({ kind: "part", name: part, check: false }));
      steps.unshift(...targetSteps, ...(check ? [{ kind: "check" } as const] : []));
      stats = undefined;
      continue;
    }
    current = next;
    if (check) ensureInside();
  }

  ensureInside();
  const relative = path.relative(rootReal, current);
  if (relative.split("/").some(isGitComponent)) {
    throw refuse("git-dir", "it resolves inside .git, which tools never touch");
  }
  if (options.forWrite && relative === "") {
    throw refuse("workspace-root", "it names the workspace root itself, not a file");
  }
  // Nothing is created past the workspace's depth and length bounds (tree-limits.ts).
  const bound = options.forWrite ? treeLimitExceeded(relative) : null;
  if (bound === "depth") {
    throw refuse("too-deep", `folders nest at most ${MAX_TREE_DEPTH} deep in a workspace`);
  }
  if (bound === "length") {
    throw refuse("too-long", `a path in a workspace is at most ${MAX_TREE_PATH_BYTES} bytes long`);
  }
  if (options.forWrite && options.protect && isProtected(relative, options.protect)) {
    throw refuse("protected", "this path is read-only for agents");
  }
  if (exists) {
    const final = stats ?? safeLstat(current);
    // Another name for the same inode may live outside the workspace: reading would leak
    // it and writing in place would change it.
    if (final?.isFile() && final.nlink > 1) {
      throw refuse("hard-link", "the file has other hard links, which may live outside");
    }
  }
  return current;
}

/** The requested path as components below the real root; absolute paths must name the root. */
function relativeToRoot(
  requested: string,
  root: string,
  rootReal: string,
  refuse: (reason: BoundaryReason, detail: string) => BoundaryError,
): string[] {
  if (!path.isAbsolute(requested)) return requested.split("/");
  const squeezed = requested.replace(/\/+/gu, "/");
  if (underAny(path.normalize(squeezed), SYSTEM_TREES)) {
    throw refuse("system-path", "it names a path in /proc, /dev or /sys");
  }
  // Only the root prefix is stripped textually; everything after it is walked like a
  // relative path, so `..` and links in it are judged physically.
  for (const base of new Set([path.resolve(root), rootReal])) {
    if (squeezed === base) return [];
    if (squeezed.startsWith(`${base}/`)) return squeezed.slice(base.length + 1).split("/");
  }
  throw refuse("outside", "resolves outside the workspace (absolute paths must be under it)");
}

function isInside(rootReal: string, candidate: string): boolean {
  if (candidate === rootReal) return true;
  return candidate.startsWith(rootReal === "/" ? "/" : `${rootReal}/`);
}

function underAny(candidate: string, trees: readonly string[]): boolean {
  return trees.some((tree) => candidate === tree || candidate.startsWith(`${tree}/`));
}

function safeLstat(target: string): Stats | undefined {
  try {
    return lstatSync(target);
  } catch {
    return undefined;
  }
}
