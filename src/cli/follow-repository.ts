// A job area follows its repository. Job areas live outside the repository, in a folder named
// after its path (work-root.ts), and git links each worktree both ways: the repository's
// `<common dir>/worktrees/<name>/gitdir` names the worktree's `.git` file, which names that
// folder back (https://git-scm.com/docs/git-worktree#_details). Move or copy the repository
// and the new path has no job areas while its git dir still registers the old ones, so the
// engine's `git worktree add` for the job's branch failed with "'cfa/1' is already checked out
// at …" and `git worktree prune` kept the registration (the old folder exists). What the
// registrations left say which it was:
// - moved: the old worktrees link back to a git dir that is gone. They are this repository's:
//   their area folder moves to the new path's and `git worktree repair` relinks both ways
//   ("If both the main worktree and linked worktrees have been moved or copied manually, then
//   running git worktree repair in the main worktree and specifying the new <path> of each
//   linked worktree will reestablish all connections in both directions", git-worktree(1)),
//   keeping uncommitted work and the response journal.
// - copied: the old worktrees link back to the original's git dir, which still exists: they
//   are the original's. Only the copy's own registrations of them go (its admin folders, never
//   the worktrees), and the engine re-creates the copy's worktrees from its branches.
// Only registrations of worktrees under cfa's own work folder are looked at: a person's own
// worktrees elsewhere are theirs.

import { lstat, readdir, readFile, realpath, rename, rm } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { gitText } from "./git-text.js";

export interface Followed {
  /** One line saying what happened, or null when the registrations were all in place. */
  said: string | null;
}

/**
 * Repairs the repository's registrations of worktrees in other folders of `workBase` (cfa's
 * work folder) after a move or a copy, as above. `workRoot` is this path's folder, `id` the
 * repository's id (a moved area carries the same id in its marker).
 */
export async function followRepository(o: {
  repoDir: string;
  commonDir: string;
  workRoot: string;
  workBase: string;
  repoId: string | null;
}): Promise<Followed> {
  const admin = join(o.commonDir, "worktrees");
  const base = resolve(o.workBase) + sep;
  const root = resolve(o.workRoot);
  const ownAdmin = await realpath(admin).catch(() => admin);
  const movedAreas = new Map<string, string>(); // old area → the git dir it linked back to
  let copiedFrom: string | null = null;
  for (const entry of await readdir(admin).catch(() => [] as string[])) {
    const pointer = (await readFile(join(admin, entry, "gitdir"), "utf8").catch(() => "")).trim();
    if (!pointer.startsWith(base) || pointer.startsWith(root + sep)) continue;
    const back = /^gitdir: (.+)$/m.exec(await readFile(pointer, "utf8").catch(() => ""))?.[1];
    if (back === undefined) continue; // the worktree is gone: `git worktree prune` clears it
    const backDir = resolve(dirname(pointer), back.trim());
    if ((await realpath(backDir).catch(() => backDir)) === join(ownAdmin, entry)) continue;
    const backGone = await lstat(backDir).then(
      () => false,
      () => true,
    );
    if (!backGone) {
      // The original's worktree: forget the copy's registration of it, nothing else.
      await rm(join(admin, entry), { recursive: true, force: true });
      copiedFrom ??= repositoryOf(backDir);
      continue;
    }
    const area = areaOf(pointer, base);
    if (area !== null && (await readId(join(area, "repository-id"))) === o.repoId) {
      movedAreas.set(area, backDir);
    }
  }
  if (movedAreas.size === 1 && !(await holdsAreas(root))) {
    const [area, backDir] = [...movedAreas][0]!;
    await rm(root, { recursive: true, force: true });
    await rename(area, root);
    const worktrees = (await listWorktrees(o.repoDir)).filter((w) => w.startsWith(area + sep));
    const moved = worktrees.map((w) => join(root, w.slice(area.length + 1)));
    if (moved.length > 0) await gitText(o.repoDir, ["worktree", "repair", ...moved]);
    return {
      said: `this repository moved from ${repositoryOf(backDir)}: its job areas moved with it (${area} → ${root}).`,
    };
  }
  if (copiedFrom !== null) {
    return {
      said: `this repository is a copy of ${copiedFrom}: its jobs get job areas of their own in ${root}, rebuilt from their branches.`,
    };
  }
  return { said: null };
}

/** `<repo>` of `<repo>/.git/worktrees/<name>` (the main worktree of a non-bare repository). */
function repositoryOf(worktreeAdmin: string): string {
  const common = dirname(dirname(worktreeAdmin));
  return common.endsWith(`${sep}.git`) ? dirname(common) : common;
}

/** The area folder (`<work base>/<hash>`) a worktree's `.git` file lies in. */
function areaOf(pointer: string, base: string): string | null {
  const hash = pointer.slice(base.length).split(sep)[0];
  return hash ? join(base, hash) : null;
}

async function readId(path: string): Promise<string | null> {
  return (await readFile(path, "utf8").catch(() => "")).trim() || null;
}

/** Whether `root` holds job areas (anything beside its id marker). */
async function holdsAreas(root: string): Promise<boolean> {
  const entries = await readdir(root).catch(() => [] as string[]);
  return entries.some((e) => e !== "repository-id" && e !== "repository-path");
}

/** The registered worktrees' paths, as git lists them (`worktree <path>` lines). */
async function listWorktrees(repoDir: string): Promise<string[]> {
  const text = await gitText(repoDir, ["worktree", "list", "--porcelain"]);
  return text
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice("worktree ".length));
}
