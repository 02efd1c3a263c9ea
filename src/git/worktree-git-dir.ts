// Where a linked worktree's git dir is, without trusting the tree. The worktree's
// `.git` is a FILE in the tree (`gitdir: <common>/worktrees/<name>`); an agent's command can
// rewrite it to point git at a repository it made, whose config then runs as the engine
// (core.fsmonitor, hooks). So the admin dir is found from the repository's own registrations
// (`<common>/worktrees/*/gitdir` names each worktree's `.git`: https://git-scm.com/docs/git-worktree#_details),
// or, when only the tree is known, taken from the `.git` file only if the admin dir it names
// lies outside the tree, is registered under its common dir, and points back at this tree.

import { constants } from "node:fs";
import { lstat, open, readdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { openDirInside } from "../agents/fs/anchored-dir.js";
import { removeTree } from "../agents/fs/remove-entry.js";

const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export class GitDirError extends Error {
  override readonly name = "GitDirError";
  constructor(
    readonly root: string,
    reason: string,
  ) {
    super(`cfa/git: cannot use ${root} as a worktree: ${reason}`);
  }
}

async function realOrUndefined(target: string): Promise<string | undefined> {
  return realpath(target).catch(() => undefined);
}

function isWithin(target: string, folder: string): boolean {
  return target === folder || target.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/** The admin dir `commonDir` registers for the worktree at `root` (real paths), or undefined. */
export async function registeredGitDir(
  commonDir: string,
  root: string,
): Promise<string | undefined> {
  const admin = path.join(commonDir, "worktrees");
  const wanted = new Set([path.join(root, ".git"), path.join(await realpath(root), ".git")]);
  for (const entry of await readdir(admin).catch(() => [] as string[])) {
    const pointer = await readFile(path.join(admin, entry, "gitdir"), "utf8").catch(() => "");
    if (wanted.has(pointer.trim())) return realOrUndefined(path.join(admin, entry));
  }
  return undefined;
}

/** The admin dir named by `<root>/.git`, accepted only if the repository confirms it. */
export async function verifiedGitDir(root: string): Promise<string> {
  const fail = (reason: string) => new GitDirError(root, reason);
  const rootReal = await realOrUndefined(root);
  if (rootReal === undefined) throw fail("it does not exist");
  const dotGit = path.join(rootReal, ".git");
  const stats = await lstat(dotGit).catch(() => undefined);
  if (!stats?.isFile()) throw fail("its .git is not a linked worktree's .git file");
  const pointer = /^gitdir: (.+?)\r?\n?$/u.exec(await readFile(dotGit, "utf8"));
  const adminDir = pointer?.[1]
    ? await realOrUndefined(path.resolve(rootReal, pointer[1]))
    : undefined;
  if (adminDir === undefined) throw fail("its .git file names no git dir");
  if (isWithin(adminDir, rootReal)) throw fail("its .git file points inside the tree itself");
  const common = await readFile(path.join(adminDir, "commondir"), "utf8").catch(() => null);
  const commonDir =
    common === null ? undefined : await realOrUndefined(path.resolve(adminDir, common.trim()));
  if (commonDir === undefined || isWithin(commonDir, rootReal)) {
    throw fail("its git dir belongs to no repository outside the tree");
  }
  if (path.dirname(adminDir) !== path.join(commonDir, "worktrees")) {
    throw fail("its git dir is not one of the repository's worktrees");
  }
  if ((await registeredGitDir(commonDir, rootReal)) !== adminDir) {
    throw fail("the repository does not register this tree at the git dir its .git names");
  }
  return adminDir;
}

/**
 * Makes `<rootReal>/.git` the pointer git wrote (`gitdir: <adminDir>`), whatever an agent's
 * command left there (a rewritten file, a link, a folder): the engine's own file, rewritten
 * through the boundary. Returns true when it had to.
 */
export async function restoreDotGit(rootReal: string, adminDir: string): Promise<boolean> {
  const expected = `gitdir: ${adminDir}\n`;
  const dir = await openDirInside(rootReal, "", { create: false, requested: ".git" });
  try {
    const current = await lstat(dir.at(".git")).catch(() => undefined);
    if (current?.isFile() && current.nlink === 1) {
      const text = await readFile(dir.at(".git"), "utf8").catch(() => "");
      const named = /^gitdir: (.+?)\r?\n?$/u.exec(text)?.[1];
      if (
        named !== undefined &&
        (await realOrUndefined(path.resolve(rootReal, named))) === adminDir
      ) {
        return false;
      }
    }
    await removeTree(dir, ".git", ".git");
    const handle = await open(dir.at(".git"), NEW_FILE, 0o644);
    try {
      await handle.writeFile(expected);
    } finally {
      await handle.close();
    }
    return true;
  } finally {
    await dir.close();
  }
}
