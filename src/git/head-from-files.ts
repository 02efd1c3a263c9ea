// A worktree's HEAD commit read from its git dir's files, without starting git
// (`rev-parse HEAD` after commits, checks and merges was one process each). Only the
// plain case is answered: HEAD names a branch (`ref: refs/heads/<name>`) whose loose ref
// file in the common dir holds a commit id, or HEAD holds the id itself (detached). A loose
// ref outranks a packed one (https://git-scm.com/docs/git-pack-refs: "a loose ref … takes
// precedence"), and git replaces it by renaming a lock file over it, so a read sees the old
// id or the new one. Anything else — a packed ref, an unborn branch, the reftable backend,
// a name with `..` — is null, and the caller asks git. The git dir and the common dir lie
// outside every worktree: no agent's command writes them.

import { lstat, readFile } from "node:fs/promises";
import path from "node:path";

const ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/u;
const BRANCH_REF = /^ref: (refs\/heads\/[^\s\\]+)$/u;

/** The commit `refs/heads/<branch>` holds as a loose ref of `commonDir`, or null. */
export async function looseBranchId(commonDir: string, ref: string): Promise<string | null> {
  if (
    !ref.startsWith("refs/heads/") ||
    ref.split("/").some((p) => p === "" || p === "." || p === "..")
  ) {
    return null;
  }
  const text = await readFile(path.join(commonDir, ...ref.split("/")), "utf8").catch(() => null);
  const id = text?.endsWith("\n") ? text.slice(0, -1) : null;
  return id !== null && ID.test(id) ? id : null;
}

/**
 * The commit `refs/heads/<branch>` holds as a loose ref of the repository whose main work
 * tree is `repoDir` (its `.git` a directory, not a linked worktree's `.git` file), or null:
 * the per-wake branch look-ups of the engine and the CLI, git asked only when
 * this says null. `repoDir` is the person's checkout, not a workspace an agent writes.
 */
export async function looseBranchIdAt(repoDir: string, ref: string): Promise<string | null> {
  const gitDir = path.join(repoDir, ".git");
  const stats = await lstat(gitDir).catch(() => null);
  if (stats === null || !stats.isDirectory()) return null;
  return looseBranchId(await commonDirOf(gitDir), ref);
}

/** The common dir of the repository `gitDir` belongs to (a linked worktree's `commondir`). */
export async function commonDirOf(gitDir: string): Promise<string> {
  const pointer = await readFile(path.join(gitDir, "commondir"), "utf8").catch(() => null);
  return pointer === null ? gitDir : path.resolve(gitDir, pointer.trim());
}

/** The commit HEAD of `gitDir` is at, from files alone; null when git must be asked. */
export async function headFromFiles(gitDir: string): Promise<string | null> {
  const text = await readFile(path.join(gitDir, "HEAD"), "utf8").catch(() => null);
  if (text === null) return null;
  const head = text.trim();
  if (ID.test(head)) return head;
  const ref = BRANCH_REF.exec(head)?.[1];
  if (ref === undefined) return null;
  return looseBranchId(await commonDirOf(gitDir), ref);
}

/**
 * The branch HEAD of `gitDir` names (`main` for `ref: refs/heads/main`), from its HEAD file
 * alone, as `git symbolic-ref --short HEAD` says it; null when HEAD is detached or says
 * anything else, and the caller asks git.
 */
export async function headBranchFromFiles(gitDir: string): Promise<string | null> {
  const text = await readFile(path.join(gitDir, "HEAD"), "utf8").catch(() => null);
  const ref = text === null ? undefined : BRANCH_REF.exec(text.trim())?.[1];
  if (ref === undefined || ref.split("/").some((p) => p === "" || p === "." || p === "..")) {
    return null;
  }
  return ref.slice("refs/heads/".length);
}

/**
 * Whether the files alone say `ref` does not exist in the repository whose common dir is
 * `commonDir`: no entry at its loose path, no `packed-refs` file and no `reftable` folder
 * (https://git-scm.com/docs/gitrepository-layout: a ref is a file under `refs/` or a line of
 * `packed-refs`; the reftable backend keeps them under `reftable/`). Anything else — a
 * packed-refs file, an entry there that is not a plain id (a symbolic ref), an unreadable
 * path — is false: git is asked.
 */
export async function refAbsentFromFiles(commonDir: string, ref: string): Promise<boolean> {
  if (!ref.startsWith("refs/") || ref.split("/").some((p) => p === "" || p === "." || p === "..")) {
    return false;
  }
  const absent = async (...parts: string[]) => {
    try {
      await lstat(path.join(commonDir, ...parts));
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ENOENT";
    }
  };
  return (
    (await absent("packed-refs")) && (await absent("reftable")) && (await absent(...ref.split("/")))
  );
}
