// The parent of a commit a worktree just made, read from git's reflog of HEAD without
// starting git (JobRepo.parentOf).

import { open } from "node:fs/promises";
import { join } from "node:path";

/**
 * The old id of the worktree's last HEAD update, when that update made `sha`: `git commit`
 * appends `<old> <new> <who> <when>\tcommit: <subject>` to `<git dir>/logs/HEAD`
 * (https://git-scm.com/docs/git-reflog; core.logAllRefUpdates is on in a repository with a
 * work tree: https://git-scm.com/docs/git-config#Documentation/git-config.txt-corelogAllRefUpdates).
 * Only the tail is read, no git process started; null when it is not there or names
 * another commit (HEAD moved again since), so the caller asks git instead. The admin dir
 * lies outside every worktree: no agent writes it.
 */
export async function reflogParent(adminDir: string | null, sha: string): Promise<string | null> {
  if (adminDir === null) return null;
  try {
    const file = await open(join(adminDir, "logs", "HEAD"), "r");
    try {
      const { size } = await file.stat();
      const length = Math.min(size, 4096);
      const tail = Buffer.alloc(length);
      await file.read(tail, 0, length, size - length);
      const last = tail.toString("utf8").trimEnd().split("\n").at(-1) ?? "";
      const match = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) /u.exec(last);
      if (match?.[2] !== sha || /^0+$/u.test(match[1]!)) return null;
      return match[1]!;
    } finally {
      await file.close();
    }
  } catch {
    return null;
  }
}
