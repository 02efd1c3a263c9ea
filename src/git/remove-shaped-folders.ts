// After a file tool writes `path`: if that made a folder on its way shaped like a bare
// repository (./repository-shape.ts: say `evil/HEAD` written next to `evil/objects/x` and
// `evil/refs/x`), the folder is removed, as the after-command check removes one a command
// made (src/adapters/git/nested-repos.ts), and the agent is told. Only the written path's
// own folders are looked at: the check costs a few directory listings, not a tree walk.

import { readdir, realpath } from "node:fs/promises";
import { openDirInside, type AnchoredDir } from "../agents/fs/anchored-dir.js";
import { removeTree } from "../agents/fs/remove-entry.js";
import { isRepositoryShape } from "./repository-shape.js";

/** Root-relative paths removed (at most one: the outermost shaped folder). */
export async function removeShapedFoldersAround(root: string, path: string): Promise<string[]> {
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  const folders = parts.slice(0, -1);
  if (folders.length === 0) return [];
  const rootReal = await realpath(root);
  let dir: AnchoredDir = await openDirInside(rootReal, "", { create: false, requested: path });
  try {
    for (let depth = 0; depth < folders.length; depth += 1) {
      const name = folders[depth] as string;
      let child: AnchoredDir;
      try {
        child = await dir.child(name, { create: false });
      } catch {
        return [];
      }
      const names = await readdir(child.at("")).catch(() => [] as string[]);
      if (isRepositoryShape(names)) {
        await child.close();
        const relative = folders.slice(0, depth + 1).join("/");
        return (await removeTree(dir, name, relative)) ? [relative] : [];
      }
      await dir.close();
      dir = child;
    }
    return [];
  } finally {
    await dir.close();
  }
}
