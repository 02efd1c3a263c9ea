// Listing a directory for an agent's tool, inside the boundary, without `.git`.

import { realpathSync } from "node:fs";
import path from "node:path";
import { resolveInWorkspace } from "../boundary/resolve-in-workspace.js";
import { openDirInside } from "./anchored-dir.js";
import type { FileToolOptions } from "./file-tool-options.js";
import { walkEntries, type EntryType } from "./walk-entries.js";

export const DEFAULT_LIST_LIMIT = 1000;

export interface ListFilesResult {
  entries: { path: string; type: EntryType }[];
  /** True when `limit` cut the listing short. */
  truncated: boolean;
  /** Folders at the depth bound (MAX_TREE_DEPTH) whose content is not listed. */
  tooDeep: number;
}

export async function listFiles(
  root: string,
  requested = "",
  options: FileToolOptions & { recursive?: boolean; limit?: number } = {},
): Promise<ListFilesResult> {
  const real = resolveInWorkspace(root, requested, { protect: options.protect ?? [] });
  const rootReal = realpathSync(root);
  await options.seam?.beforeOpen?.(real);
  const relative = path.relative(rootReal, real);
  const dir = await openDirInside(rootReal, relative, {
    create: false,
    requested,
    pathOnly: options.seam?.pathOnly ?? false,
  });
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  const entries: ListFilesResult["entries"] = [];
  let tooDeep = 0;
  try {
    for await (const entry of walkEntries(dir, relative, {
      recursive: options.recursive ?? false,
      requested,
      onTooDeep: () => (tooDeep += 1),
    })) {
      if (entries.length === limit) return { entries, truncated: true, tooDeep };
      entries.push({ path: entry.path, type: entry.type });
    }
  } finally {
    await dir.close();
  }
  return { entries, truncated: false, tooDeep };
}
