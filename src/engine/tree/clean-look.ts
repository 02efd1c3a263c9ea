// Whether a worktree already is what `git reset --hard` and `git clean` would leave: one
// `git status` and a look for an operation in progress, so a wake after a clean end skips both.

import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { GitClient } from "../../git/git-client.js";

/**
 * Files `git reset --hard` removes from the git dir (an operation left in progress: a merge,
 * a cherry-pick, a revert): while one is there the reset runs, whatever the status says.
 */
const IN_PROGRESS = [
  "MERGE_HEAD",
  "MERGE_MSG",
  "MERGE_MODE",
  "MERGE_RR",
  "AUTO_MERGE",
  "SQUASH_MSG",
  "CHERRY_PICK_HEAD",
  "REVERT_HEAD",
];

/**
 * One `git status` of the whole tree for `resetToHead`: every path git tracks or could add,
 * dependency folders included (a tracked file a turn changed there is put back too), untracked
 * folders collapsed to one entry (`--untracked-files=normal`, so a setup's unignored
 * node_modules is one line that makes the reset run). `clean` is true when git lists nothing
 * but ignored entries and no operation is in progress; null when git cannot say, or the git
 * dir is not known (the reset runs). What a reset would still change and a status cannot
 * show: an empty untracked folder, which `clean -d` removes and no commit ever takes.
 */
export async function cleanLook(
  git: GitClient,
  adminDir: string | null,
): Promise<{ clean: boolean; ignoredFolders: Set<string> } | null> {
  if (adminDir === null) return null;
  const result = await git.run([
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=normal",
    "--ignored=matching",
    "--no-renames",
  ]);
  if (result.code !== 0) return null;
  const ignoredFolders = new Set<string>();
  let clean = true;
  for (const entry of result.stdout.toString("utf8").split("\0")) {
    if (entry.length < 4) continue;
    if (entry.startsWith("!! ")) {
      if (entry.endsWith("/")) ignoredFolders.add(entry.slice(3));
    } else {
      clean = false;
    }
  }
  for (const name of IN_PROGRESS) {
    if (!clean) break;
    clean = (await lstat(join(adminDir, name)).catch(() => null)) === null;
  }
  return { clean, ignoredFolders };
}
