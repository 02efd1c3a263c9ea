// Walks a directory held by descriptor, in name order, skipping every `.git` (README,
// "Sandbox": file tools never see it) and never descending through a symbolic link.

import { readdir } from "node:fs/promises";
import type { Dirent } from "node:fs";
import { isGitComponent } from "../boundary/is-git-component.js";
import type { AnchoredDir } from "./anchored-dir.js";
import { toFileError } from "./to-file-error.js";

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

export async function* walkEntries(
  dir: AnchoredDir,
  prefix: string,
  options: { recursive: boolean; requested: string },
): AsyncGenerator<WalkEntry> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir.at(""), { withFileTypes: true });
  } catch (error) {
    throw toFileError(error, options.requested);
  }
  await dir.recheck();
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (isGitComponent(entry.name)) continue;
    const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    const type = typeOf(entry);
    yield { path: relative, name: entry.name, type, parent: dir };
    if (options.recursive && type === "dir") {
      const child = await dir.child(entry.name, { create: false });
      try {
        yield* walkEntries(child, relative, options);
      } finally {
        await child.close();
      }
    }
  }
}
