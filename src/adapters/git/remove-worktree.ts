// Releasing a workspace (below the rules, as their consequence: docs/protocol.md#withdrawal)
// without ever deleting through a link: a link at the root is unlinked itself, a real directory is
// removed by git only if git knows it as a worktree, and the registration is pruned in every case —
// by a `git worktree prune` only when one would remove something (stale-worktrees.ts).

import { lstat, readdir, readFile, rm, unlink } from "node:fs/promises";
import path from "node:path";
import type { GitClient } from "../../git/git-client.js";
import type { Logger } from "../../ports/logger.js";
import { gitOutput } from "../../git/git-at.js";
import { looseBranchId, refAbsentFromFiles } from "../../git/head-from-files.js";
import { hasStaleWorktree } from "../../git/stale-worktrees.js";

export async function removeWorktree(
  repo: GitClient,
  root: string,
  options: { commonDir: string; logger: Logger },
): Promise<void> {
  const stats = await lstat(root).catch(() => undefined);
  if (stats?.isSymbolicLink()) {
    await unlink(root);
  } else if (stats?.isDirectory()) {
    try {
      // Twice --force: also removes a locked worktree and one with untracked files; the
      // caller has already committed (close) or chosen to discard (drop) its work.
      await gitOutput(repo, ["worktree", "remove", "--force", "--force", root]);
    } catch (error) {
      // Not (or no longer) our worktree: its content is not ours to delete, but our
      // registration of that path must go, or the branch stays checked out "there".
      options.logger.warn("cfa/workspaces: git did not remove the directory; left in place", {
        root,
        error: String(error),
      });
      await forgetRegistration(options.commonDir, root);
    }
  }
  if (await hasStaleWorktree(options.commonDir)) await gitOutput(repo, ["worktree", "prune"]);
}

/** Deletes the admin entry that registers `root`, as `git worktree prune` would if it could. */
async function forgetRegistration(commonDir: string, root: string): Promise<void> {
  const admin = path.join(commonDir, "worktrees");
  const entries = await readdir(admin).catch(() => [] as string[]);
  for (const entry of entries) {
    const gitdir = await readFile(path.join(admin, entry, "gitdir"), "utf8").catch(() => "");
    if (gitdir.trim() === path.join(root, ".git")) {
      await rm(path.join(admin, entry), { recursive: true, force: true });
    }
  }
}

/**
 * Whether the local branch exists. With the repository's common dir, a loose ref answers
 * without a git process (head-from-files.ts), and so does a branch that is
 * nowhere a ref could be; otherwise (the branch may be packed) git is asked.
 */
export async function branchExists(
  repo: GitClient,
  branch: string,
  commonDir?: string,
): Promise<boolean> {
  if (commonDir !== undefined) {
    const ref = `refs/heads/${branch}`;
    if ((await looseBranchId(commonDir, ref)) !== null) return true;
    // Nowhere a ref could be (no loose file, nothing packed): a new task's branch.
    if (await refAbsentFromFiles(commonDir, ref)) return false;
  }
  const sha = await gitOutput(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
  return sha !== "";
}

export async function deleteBranch(
  repo: GitClient,
  branch: string,
  commonDir?: string,
): Promise<void> {
  if (await branchExists(repo, branch, commonDir)) {
    await gitOutput(repo, ["branch", "--delete", "--force", branch]);
  }
}
