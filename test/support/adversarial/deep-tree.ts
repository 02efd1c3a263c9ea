// Building and measuring trees thousands of folders deep. Paths that long cannot be handed
// to a syscall (PATH_MAX, 4,096 bytes), so each folder is made and opened from the one
// before it, through /proc/self/fd — the way a `mkdir d; cd d` loop in a command makes it.

import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdirSync, openSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { treeLimitExceeded } from "../../../src/agents/boundary/tree-limits.js";

const DIR = constants.O_RDONLY | constants.O_DIRECTORY;

export interface ChainOptions {
  /** A file written in the deepest folder. */
  leaf?: string;
  /** Called at every level with the folder's fd path, to plant more there. */
  at?: (folder: string, level: number) => void;
}

/** Makes `depth` folders named `name`, each inside the one before, below `root/start`. */
export function plantChain(
  root: string,
  start: string,
  name: string,
  depth: number,
  options: ChainOptions = {},
): void {
  const first = path.join(root, start);
  mkdirSync(first, { recursive: true });
  let fd = openSync(first, DIR);
  try {
    for (let level = 1; level <= depth; level += 1) {
      const here = `/proc/self/fd/${fd}`;
      mkdirSync(`${here}/${name}`);
      const next = openSync(`${here}/${name}`, DIR);
      closeSync(fd);
      fd = next;
      options.at?.(`/proc/self/fd/${fd}`, level);
    }
    if (options.leaf !== undefined) writeFileSync(`/proc/self/fd/${fd}/${options.leaf}`, "deep\n");
  } finally {
    closeSync(fd);
  }
}

/** Plants a link at `folder` (an fd path from `at`). */
export function plantLink(folder: string, name: string, target: string): void {
  symlinkSync(target, `${folder}/${name}`);
}

/**
 * Every entry below `root` (none inside `.git`) that is past the tree's bounds, by GNU find,
 * which walks any depth with descriptors of its own.
 */
export function outOfBounds(root: string): string[] {
  const listed = execFileSync(
    "find",
    [".", "-mindepth", "1", "-name", ".git", "-prune", "-o", "-printf", "%y\\t%P\\0"],
    { cwd: root, maxBuffer: 256 * 1024 * 1024 },
  ).toString("utf8");
  return listed
    .split("\0")
    .filter((line) => line !== "")
    .map((line) => line.split("\t") as [string, string])
    .filter(([type, file]) => treeLimitExceeded(file, type === "d" ? "dir" : "file") !== null)
    .map(([, file]) => file);
}

/** Removes a tree of any depth (GNU rm walks it with descriptors, never a long path). */
export function removeDeep(dir: string): void {
  execFileSync("rm", ["-rf", "--", dir]);
}
