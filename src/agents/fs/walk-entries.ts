// Walks a directory held by descriptor, in name order, skipping every `.git` (README,
// "Sandbox": file tools never see it), never descending through a symbolic link nor below
// the depth bound.

import { readdir } from "node:fs/promises";
import type { Dirent } from "node:fs";
import { isGitComponent } from "../boundary/is-git-component.js";
import type { AnchoredDir } from "./anchored-dir.js";
import { toFileError } from "./to-file-error.js";
import { MAX_TREE_DEPTH } from "../boundary/tree-limits.js";

export const ENTRY_TYPES = ["file", "dir", "symlink", "other"] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export interface WalkEntry {
  /** Root-relative path with `/` separators. */
  path: string;
  name: string;
  type: EntryType;
  /** The directory holding the entry; open only while the entry is being handled. */
  parent: AnchoredDir;
}

function typeOf(entry: Dirent): EntryType {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "dir";
  if (entry.isFile()) return "file";
  return "other";
}

export interface WalkOptions {
  recursive: boolean;
  requested: string;
  /** Called for a folder the walk does not enter: it lies at the depth bound. */
  onTooDeep?: (path: string) => void;
}

interface Frame {
  dir: AnchoredDir;
  prefix: string;
  entries: Dirent[];
  next: number;
}

/**
 * Each entry below `dir`, depth first in name order. Iterative, with one folder held per
 * level of the current path, and never below MAX_TREE_DEPTH folders: a
 * 2,000-deep chain neither exhausts descriptors nor builds paths past PATH_MAX.
 */
export async function* walkEntries(
  dir: AnchoredDir,
  prefix: string,
  options: WalkOptions,
): AsyncGenerator<WalkEntry> {
  const depthOf = (path: string) => (path === "" ? 0 : path.split("/").length);
  const stack: Frame[] = [{ dir, prefix, entries: await listed(dir, options.requested), next: 0 }];
  try {
    while (stack.length > 0) {
      const frame = stack.at(-1)!;
      const entry = frame.entries[frame.next];
      if (entry === undefined) {
        stack.pop();
        if (frame.dir !== dir) await frame.dir.close();
        continue;
      }
      frame.next += 1;
      if (isGitComponent(entry.name)) continue;
      const relative = frame.prefix === "" ? entry.name : `${frame.prefix}/${entry.name}`;
      const type = typeOf(entry);
      yield { path: relative, name: entry.name, type, parent: frame.dir };
      if (!options.recursive || type !== "dir") continue;
      if (depthOf(relative) >= MAX_TREE_DEPTH) {
        options.onTooDeep?.(relative);
        continue;
      }
      const child = await frame.dir.child(entry.name, { create: false });
      try {
        stack.push({
          dir: child,
          prefix: relative,
          entries: await listed(child, options.requested),
          next: 0,
        });
      } catch (error) {
        await child.close();
        throw error;
      }
    }
  } finally {
    for (const frame of stack) if (frame.dir !== dir) await frame.dir.close();
  }
}

async function listed(dir: AnchoredDir, requested: string): Promise<Dirent[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir.at(""), { withFileTypes: true });
  } catch (error) {
    throw toFileError(error, requested);
  }
  await dir.recheck();
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
