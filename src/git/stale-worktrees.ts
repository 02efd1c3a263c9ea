// Whether `git worktree prune` would remove anything (a task's provisioning and
// its merge each ran one, a git process apiece, where nothing was ever stale). git's own
// rule (builtin/worktree.c, should_prune_worktree; https://git-scm.com/docs/git-worktree
// "prune: Prune worktree information in $GIT_DIR/worktrees"): an entry of
// `<common dir>/worktrees/` is pruned, unless locked, when its `gitdir` file is missing or
// unreadable, or names a `.git` that no longer exists; `prune` without `--expire` takes
// every such entry, however recent. Anything these files cannot settle counts as stale, so
// the caller prunes as before.

import { access, readdir, readFile } from "node:fs/promises";
import path from "node:path";

export async function hasStaleWorktree(commonDir: string): Promise<boolean> {
  const admin = path.join(commonDir, "worktrees");
  let entries: string[];
  try {
    entries = await readdir(admin);
  } catch (error) {
    // No linked worktree at all: nothing to prune.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
  for (const entry of entries) {
    const dir = path.join(admin, entry);
    // A locked entry is never pruned; an unreadable lock file is not settled here.
    const locked = await access(path.join(dir, "locked")).then(
      () => true,
      (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? false : null),
    );
    if (locked === null) return true;
    if (locked) continue;
    const gitdir = await readFile(path.join(dir, "gitdir"), "utf8").catch(() => null);
    const target = gitdir?.trim() ?? "";
    if (target === "" || !path.isAbsolute(target)) return true;
    const present = await access(target).then(
      () => true,
      () => false,
    );
    if (!present) return true;
  }
  return false;
}
