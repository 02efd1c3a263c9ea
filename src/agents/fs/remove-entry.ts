// Removing a file, a link or a whole folder inside the workspace without ever following a
// link: each folder is opened from its parent held by descriptor (O_NOFOLLOW), its entries
// unlinked there, then the folder itself. A link is removed, never what it points at; a
// folder swapped for a link mid-way fails to open and the removal stops (the engine removes nested
// repositories and forged records this way).

import { realpathSync } from "node:fs";
import { lstat, readdir, rename, rmdir, unlink } from "node:fs/promises";
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
      const top = await dir.child(name, { create: false });
      try {
        await emptyFolder(top);
      } finally {
        await top.close();
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
 * Empties a held folder however deep its tree goes (a command makes one 2,000
 * folders deep in a second), iteratively, with two folders open at a time and never a path
 * longer than one name below a descriptor: each sub-folder's files are unlinked and its own
 * sub-folders moved up into `top` (a rename inside the tree moves a whole subtree at once and
 * follows nothing), then it is removed. Every folder is moved at most once, and every pass
 * removes the folders it found, so the loop ends. A recursive walk would hold a descriptor
 * per level and build paths past PATH_MAX.
 */
async function emptyFolder(top: AnchoredDir): Promise<void> {
  let moved = 0;
  for (;;) {
    const entries = await readdir(top.at(""), { withFileTypes: true });
    if (entries.length === 0) return;
    for (const entry of entries) {
      if (!entry.isDirectory()) {
        await unlink(top.at(entry.name)).catch(ignoreGone);
        continue;
      }
      let child: AnchoredDir;
      try {
        child = await top.child(entry.name, { create: false });
      } catch (error) {
        if ((error as { code?: string }).code === "not-found") continue;
        throw error;
      }
      try {
        for (const inner of await readdir(child.at(""), { withFileTypes: true })) {
          if (!inner.isDirectory()) {
            await unlink(child.at(inner.name)).catch(ignoreGone);
            continue;
          }
          // A name no entry of `top` has now; one taken meanwhile is skipped.
          for (;;) {
            moved += 1;
            try {
              await rename(child.at(inner.name), top.at(`.cfa-removing-${moved}`));
              break;
            } catch (error) {
              const code = (error as NodeJS.ErrnoException).code;
              if (code === "ENOENT") break;
              if (code !== "ENOTEMPTY" && code !== "EEXIST" && code !== "ENOTDIR") throw error;
            }
          }
        }
      } finally {
        await child.close();
      }
      await rmdir(top.at(entry.name)).catch(ignoreGone);
    }
  }
}

function ignoreGone(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
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
