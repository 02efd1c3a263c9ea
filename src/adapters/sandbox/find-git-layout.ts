// Where a workspace's git metadata lives, so the sandbox can make it read-only and hide
// the rest of the main checkout. A linked worktree's `.git` is a FILE naming its gitdir
// (`<main>/.git/worktrees/<name>`), whose `commondir` names the shared `<main>/.git`.

import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";

export interface GitLayout {
  /** `<workspace>/.git`: a directory in a plain clone, a file in a linked worktree. */
  dotGit: string;
  /** This checkout's own gitdir (HEAD, index). */
  gitDir: string;
  /** The shared gitdir (objects, refs, hooks, config). Equal to gitDir in a plain clone. */
  commonDir: string;
  /** True when the workspace is a linked worktree of a repository elsewhere. */
  linked: boolean;
}

/** Null when the workspace has no `.git`, or one that does not point at a real gitdir. */
export async function findGitLayout(workspaceRoot: string): Promise<GitLayout | null> {
  const dotGit = path.join(workspaceRoot, ".git");
  const info = await lstat(dotGit).catch(() => null);
  if (info === null) return null;
  if (info.isDirectory()) {
    return { dotGit, gitDir: dotGit, commonDir: dotGit, linked: false };
  }
  if (!info.isFile()) return null;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, "utf8"));
  if (!pointer?.[1]) return null;
  const gitDir = await realpath(path.resolve(workspaceRoot, pointer[1])).catch(() => null);
  if (gitDir === null) return null;
  const common = await readFile(path.join(gitDir, "commondir"), "utf8").catch(() => null);
  const commonDir =
    common === null
      ? gitDir
      : await realpath(path.resolve(gitDir, common.trim())).catch(() => gitDir);
  return { dotGit, gitDir, commonDir, linked: true };
}

/**
 * The folder that holds the main checkout of a linked worktree's repository: the parent
 * of a `.git` directory, or the repository itself when it is bare.
 */
export function mainCheckoutOf(layout: GitLayout): string {
  return path.basename(layout.commonDir) === ".git"
    ? path.dirname(layout.commonDir)
    : layout.commonDir;
}
