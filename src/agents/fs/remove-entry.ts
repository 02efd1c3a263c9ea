// Removing a file, a link or a whole folder inside the workspace without ever following a
// link: each folder is opened from its parent held by descriptor (O_NOFOLLOW), its entries
// unlinked there, then the folder itself. A link is removed, never what it points at; a
// folder swapped for a link mid-way fails to open and the removal stops (issue 8 §2, §10:
// the engine removes nested repositories and forged records this way).

import { realpathSync } from "node:fs";
import { lstat, readdir, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import { BoundaryError } from "../boundary/boundary-error.js";
import { isGitComponent } from "../boundary/is-git-component.js";
import { isProtected } from "../boundary/is-protected.js";
import { resolveInWorkspace } from "../boundary/resolve-in-workspace.js";
import { openDirInside, unanchored, type AnchoredDir } from "./anchored-dir.js";
import type { FileToolOptions } from "./file-tool-options.js";
import { toFileError } from "./to-file-error.js";

/** Removes `name` in `dir` (recursively for a folder). False when it did not exist. */
export async function removeTree(
  dir: AnchoredDir,
  name: string,
  requested: string,
): Promise<boolean> {
  if (dir.mode === "path") throw unanchored(requested);
  const stats = await lstat(dir.at(name)).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw toFileError(error, requested);
  });
  if (stats === undefined) return false;
  try {
    if (stats.isDirectory()) {
      const child = await dir.child(name, { create: false });
      try {
        for (const entry of await readdir(child.at(""))) {
          await removeTree(child, entry, requested);
        }
      } finally {
        await child.close();
      }
      await rmdir(dir.at(name));
    } else {
      await unlink(dir.at(name));
    }
  } catch (error) {
    throw toFileError(error, requested);
  }
  return true;
}

/**
 * Removes `requested` (a root-relative path) and everything below it. The folders on the way
 * must resolve inside the root; the last component itself is removed, not followed.
 * `allowGit` lets the engine remove a nested `.git`, which no tool may touch.
 */
export async function removeEntry(
  root: string,
  requested: string,
  options: FileToolOptions & { allowGit?: boolean } = {},
): Promise<boolean> {
  const parts = requested.split("/").filter((part) => part !== "" && part !== ".");
  const name = parts.pop();
  if (name === undefined || name === ".." || parts.includes("..")) {
    throw new BoundaryError(requested, "invalid-path", "give the path of an entry below the root");
  }
  if (!options.allowGit && isGitComponent(name)) {
    throw new BoundaryError(requested, "git-dir", "paths inside .git are never touched");
  }
  const parent = parts.join("/");
  const real = resolveInWorkspace(root, parent === "" ? "." : parent, {
    noLinks: options.noLinks ?? false,
  });
  const rootReal = realpathSync(root);
  const relative = path.relative(rootReal, real);
  if (relative.startsWith("..") || path.isAbsolute(relative)) {
    throw new BoundaryError(requested, "outside", "resolves outside the workspace");
  }
  // The same write rule as any change: a protected prefix refuses it. The entry itself is
  // judged by its name, not by where a link there points: it is removed, not followed.
  if (isProtected(path.join(relative, name), options.protect ?? [])) {
    throw new BoundaryError(requested, "protected", "this path is read-only for agents");
  }
  await options.seam?.beforeOpen?.(path.join(real, name));
  let dir: AnchoredDir;
  try {
    dir = await openDirInside(rootReal, relative, {
      create: false,
      requested,
      pathOnly: options.seam?.pathOnly ?? false,
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "not-found") return false;
    throw error;
  }
  try {
    return await removeTree(dir, name, requested);
  } finally {
    await dir.close();
  }
}
