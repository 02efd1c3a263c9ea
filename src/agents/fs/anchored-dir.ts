// A directory held open by descriptor, reached from the workspace root one component at a
// time with O_NOFOLLOW, so no link swapped in after the boundary check is ever followed.
// Node has no openat(); on Linux `/proc/self/fd/<fd>/<name>` gives the same guarantee (the
// lookup starts at the held directory, wherever its path now leads). Where /proc is not
// mounted, a path-based fallback re-verifies the directory around every use instead; that
// is enough to refuse a raced read afterwards, but not to keep a raced create, append or
// remove from landing outside first, so without /proc nothing is created or
// removed: the fallback reads, and refuses every change before making it.

import { constants, type Stats } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import { BoundaryError } from "../boundary/boundary-error.js";
import { FileToolError } from "./file-tool-error.js";
import { toFileError } from "./to-file-error.js";

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

export interface AnchoredDir {
  /** The real path this directory had when it was opened and verified. */
  readonly realPath: string;
  /** "proc" when lookups are anchored to the descriptor; "path" in the fallback. */
  readonly mode: "proc" | "path";
  /** A path that reaches `name` in this very directory ("" for the directory itself). */
  at(name: string): string;
  /** Throws BoundaryError if this directory is no longer at `realPath` (path mode only). */
  recheck(): Promise<void>;
  /** Opens (or creates, then opens) a child directory without following a link. */
  child(name: string, options: { create: boolean }): Promise<AnchoredDir>;
  /** Flushes the directory entry table, so a rename in it survives a crash. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export function changed(requested: string, cause?: unknown): BoundaryError {
  return new BoundaryError(
    requested,
    "changed",
    "the path changed between the boundary check and its use (a link or directory was swapped); try again",
    cause === undefined ? {} : { cause },
  );
}

/** Refuses a change that only a path-based lookup could make. */
export function unanchored(requested: string): FileToolError {
  return new FileToolError(
    "unanchored",
    requested,
    "/proc/self/fd is not available, so the change could not be anchored to the checked folder; nothing was created, changed or removed (mount /proc)",
  );
}

/** The path the kernel holds for a descriptor, or undefined where /proc is not available. */
export async function descriptorPath(fd: number): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

class Anchored implements AnchoredDir {
  constructor(
    private readonly handle: FileHandle,
    private readonly stats: Stats,
    readonly realPath: string,
    readonly mode: "proc" | "path",
    private readonly requested: string,
  ) {}

  at(name: string): string {
    const base = this.mode === "proc" ? `/proc/self/fd/${this.handle.fd}` : this.realPath;
    return name === "" ? base : `${base === "/" ? "" : base}/${name}`;
  }

  async recheck(): Promise<void> {
    if (this.mode === "proc") return;
    try {
      const [now, real] = await Promise.all([lstat(this.realPath), realpath(this.realPath)]);
      if (real !== this.realPath || now.isSymbolicLink() || !sameFile(now, this.stats)) {
        throw changed(this.requested);
      }
    } catch (error) {
      throw error instanceof BoundaryError ? error : changed(this.requested, error);
    }
  }

  async child(name: string, options: { create: boolean }): Promise<AnchoredDir> {
    const target = this.at(name);
    const realPath = this.realPath === "/" ? `/${name}` : `${this.realPath}/${name}`;
    if (options.create && this.mode === "path") throw unanchored(this.requested);
    if (options.create) {
      try {
        await mkdir(target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
          throw toFileError(error, this.requested);
        }
      }
    }
    if (this.mode === "path") {
      await this.recheck();
      const before = await lstat(realPath).catch((error: unknown) => {
        throw toFileError(error, this.requested);
      });
      if (before.isSymbolicLink()) throw changed(this.requested);
      if (!before.isDirectory()) {
        throw new FileToolError(
          "not-a-directory",
          this.requested,
          `${realPath} is not a directory`,
        );
      }
    }
    return openVerified(target, realPath, this.mode, this.requested);
  }

  async sync(): Promise<void> {
    // Not every filesystem can fsync a directory; durability there is best effort.
    await this.handle.sync().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

async function openVerified(
  target: string,
  realPath: string,
  mode: "proc" | "path" | "detect",
  requested: string,
): Promise<AnchoredDir> {
  let handle: FileHandle;
  try {
    handle = await open(target, DIR_FLAGS);
  } catch (error) {
    // O_DIRECTORY|O_NOFOLLOW on a link fails with ENOTDIR, not ELOOP: tell a swapped-in
    // link (a refusal) from a plain file in the way (a usage error).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR" || code === "ELOOP") {
      const entry = await lstat(target).catch(() => undefined);
      if (entry?.isSymbolicLink()) throw changed(requested, error);
    }
    throw toFileError(error, requested);
  }
  try {
    const stats = await handle.stat();
    const held = mode === "path" ? undefined : await descriptorPath(handle.fd);
    const actual: "proc" | "path" = held === undefined ? "path" : "proc";
    if (mode === "proc" && actual !== "proc") throw changed(requested);
    if (held !== undefined && held !== realPath) throw changed(requested);
    const anchored = new Anchored(handle, stats, realPath, actual, requested);
    if (actual === "path") await anchored.recheck();
    return anchored;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Opens `relative` (a `/`-separated path below `rootReal`, "" for the root) one component
 * at a time, creating missing components when `create` is set.
 */
export async function openDirInside(
  rootReal: string,
  relative: string,
  options: { create: boolean; requested: string; pathOnly?: boolean },
): Promise<AnchoredDir> {
  let current = await openVerified(
    rootReal,
    rootReal,
    options.pathOnly ? "path" : "detect",
    options.requested,
  );
  for (const name of relative.split("/").filter((part) => part !== "")) {
    try {
      const next = await current.child(name, { create: options.create });
      await current.close();
      current = next;
    } catch (error) {
      await current.close();
      throw error;
    }
  }
  return current;
}
