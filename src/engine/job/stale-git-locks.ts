// Git's lock files left by a process that died in the middle of a git command (kill -9, the OOM
// killer, a power cut), which may lose at most the turn in flight (bounded crash-loss,
// docs/protocol.md#invariants). Git removes its locks when it is interrupted, not when it is
// killed, and every later command on that ref or worktree then fails "Unable to create '….lock':
// File exists" — the job would be wedged for good.
//
// The wake lock (wake-lock.ts) makes this process the only one working on job N, so a lock on
// one of job N's branches (`cfa/<N>`, `cfa/<N>-<task>`) or in the admin folder of one of its
// worktrees (under `<workRoot>/<N>/`) is stale: removed before the session opens. Locks other
// jobs share (the repository's index, packed-refs, config) are left alone: another job's live
// wake may hold them. Where the worktrees are is read from git's own admin folders
// (`.git/worktrees/*/gitdir`), never from a file in a worktree, which an agent can write.

import { lstat, readFile, readdir, rm, stat } from "node:fs/promises";
import { isAbsolute, join, resolve, sep } from "node:path";

/** Removes job `n`'s stale git locks; returns what it removed (paths under the git folder). */
export async function removeStaleGitLocks(
  repoDir: string,
  workRoot: string,
  n: number,
): Promise<string[]> {
  const common = await commonGitDir(repoDir);
  if (common === null) return [];
  const stale: string[] = [];
  const heads = join(common, "refs", "heads", "cfa");
  for (const name of await list(heads)) {
    if (name === `${n}.lock` || (name.startsWith(`${n}-`) && name.endsWith(".lock"))) {
      stale.push(join(heads, name));
    }
  }
  const area = resolve(workRoot, String(n)) + sep;
  const admin = join(common, "worktrees");
  for (const name of await list(admin)) {
    // git's own folders only: a link here would take the removal somewhere else.
    const entry = await lstat(join(admin, name)).catch(() => null);
    if (entry === null || !entry.isDirectory()) continue;
    const gitdir = await readText(join(admin, name, "gitdir"));
    if (gitdir === null || !resolve(gitdir.trim()).startsWith(area)) continue;
    for (const lock of ["index.lock", "HEAD.lock"]) stale.push(join(admin, name, lock));
  }
  const removed: string[] = [];
  for (const path of stale) {
    if (!(await exists(path))) continue;
    await rm(path, { force: true });
    removed.push(path.slice(common.length + 1));
  }
  return removed;
}

/** The repository's git folder (`.git`, or where a `.git` file points), or null. */
async function commonGitDir(repoDir: string): Promise<string | null> {
  const dotGit = join(repoDir, ".git");
  const info = await stat(dotGit).catch(() => null);
  if (info === null) return null;
  if (info.isDirectory()) return dotGit;
  // A `.git` file ("gitdir: <path>"): the repository is itself a linked worktree or a
  // submodule; its common folder is named in `commondir`.
  const text = (await readText(dotGit)) ?? "";
  const match = /^gitdir: (.+)$/m.exec(text);
  if (match === null) return null;
  const gitdir = resolve(repoDir, match[1]!.trim());
  const commondir = await readText(join(gitdir, "commondir"));
  if (commondir === null) return gitdir;
  const c = commondir.trim();
  return isAbsolute(c) ? c : resolve(gitdir, c);
}

async function list(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

async function readText(path: string): Promise<string | null> {
  return readFile(path, "utf8").catch(() => null);
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}
