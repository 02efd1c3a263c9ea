// No repository inside a workspace. A nested `.git` (folder, file or link)
// makes the engine's `git add` record a gitlink and later start git inside it, where its own
// config (core.fsmonitor, hooks) runs as the engine; an empty one (`git init sub`) fails
// every `git add` ("does not have a commit checked out") and `git clean` keeps it. Names git
// treats as `.git` on other filesystems (`.GIT`, `.git.`, `git~1`: is_ntfs_dotgit) make
// `git add` refuse the whole tree ("invalid path"). Every such entry below the root is
// removed here, through the workspace boundary: each folder is held open and nothing is
// followed through a link, so a removal can never reach outside. So is every folder shaped
// like a bare repository (src/git/repository-shape.ts), whole — unless it is
// the repository's own, as committed before the job (a test fixture), untouched since.

import { readdir } from "node:fs/promises";
import type { Dirent } from "node:fs";
import { isGitComponent } from "../agents/boundary/is-git-component.js";
import { openDirInside, type AnchoredDir } from "../agents/fs/anchored-dir.js";
import { removeTree } from "../agents/fs/remove-entry.js";
import { isRepositoryShape } from "./repository-shape.js";
import { treeLimitExceeded } from "../agents/boundary/tree-limits.js";
import type { GitClient } from "./git-client.js";
import { DEPENDENCY_FOLDERS } from "./dependency-folders.js";

const DEPENDENCY_NAMES: ReadonlySet<string> = new Set(DEPENDENCY_FOLDERS);

/** What a sweep of the tree removed, root-relative. */
export interface TreeSweep {
  /** Nested repositories and bare-shaped folders. */
  repos: string[];
  /** Entries past the depth or length bound (agents/boundary/tree-limits.ts). */
  outOfBounds: { path: string; why: "depth" | "length" }[];
}

/**
 * Removes every `.git` (and every name git takes for one) below `root`, except the root's
 * own, and every folder shaped like a bare repository; returns the root-relative paths
 * removed. With `git`, folders the repository ignores and dependency folders are skipped:
 * `git add` never looks inside them, so a repository there is never recorded.
 */
export async function removeNestedRepos(
  root: string,
  git?: GitClient,
  /** The ignored folders when the caller has just listed them (tree-status.ts). */
  known?: ReadonlySet<string>,
): Promise<string[]> {
  return (await sweepTree(root, git, known)).repos;
}

interface Frame {
  dir: AnchoredDir;
  prefix: string;
  entries: Dirent[];
  next: number;
}

/**
 * The after-command sweep: nested and bare repositories (above), and everything past the
 * tree's depth and length bounds, removed. Iterative, holding one folder per
 * level of the current path and never entering a folder past the depth bound, so a tree
 * ~2,000 folders deep costs a bounded walk and one removal (remove-entry.ts), not a throw.
 */
export async function sweepTree(
  root: string,
  git?: GitClient,
  /** The ignored folders when the caller has just listed them (tree-status.ts). */
  known?: ReadonlySet<string>,
): Promise<TreeSweep> {
  const ignored = known ?? (git ? await ignoredFolders(git) : new Set<string>());
  const swept: TreeSweep = { repos: [], outOfBounds: [] };
  const top = await openDirInside(root, "", { create: false, requested: "." });
  const stack: Frame[] = [{ dir: top, prefix: "", entries: await listed(top), next: 0 }];
  try {
    while (stack.length > 0) {
      const frame = stack.at(-1)!;
      const entry = frame.entries[frame.next];
      if (entry === undefined) {
        stack.pop();
        await frame.dir.close();
        continue;
      }
      frame.next += 1;
      const { dir, prefix } = frame;
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (isGitComponent(entry.name)) {
        if (prefix === "" && entry.name === ".git") continue; // the worktree's own
        if (await removeTree(dir, entry.name, relative)) swept.repos.push(relative);
        continue;
      }
      const why = treeLimitExceeded(relative, entry.isDirectory() ? "dir" : "file");
      if (why !== null) {
        if (await removeTree(dir, entry.name, relative)) {
          swept.outOfBounds.push({ path: relative, why });
        }
        continue;
      }
      if (!entry.isDirectory() || ignored.has(`${relative}/`)) continue;
      // A dependency folder is never staged either (dependency-folders.ts): setup's thousands
      // of installed files are not walked after every command.
      if (git !== undefined && DEPENDENCY_NAMES.has(entry.name)) continue;
      let child: AnchoredDir;
      try {
        child = await dir.child(entry.name, { create: false });
      } catch {
        continue; // swapped or gone since the listing: nothing to follow
      }
      let bare = false;
      try {
        bare = await isBareShaped(child, relative, git);
      } catch (error) {
        await child.close();
        throw error;
      }
      if (bare) {
        await child.close();
        if (await removeTree(dir, entry.name, relative)) swept.repos.push(relative);
        continue;
      }
      stack.push({ dir: child, prefix: relative, entries: await listed(child), next: 0 });
    }
  } finally {
    for (const frame of stack) await frame.dir.close();
  }
  return swept;
}

async function listed(dir: AnchoredDir): Promise<Dirent[]> {
  try {
    return await readdir(dir.at(""), { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * Whether `dir` is shaped like a bare repository that the job made or changed: one the
 * repository already holds, committed and untouched (nothing untracked or changed below
 * it), is the project's own.
 */
async function isBareShaped(
  dir: AnchoredDir,
  relative: string,
  git: GitClient | undefined,
): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(dir.at(""));
  } catch {
    return false;
  }
  if (!isRepositoryShape(names)) return false;
  if (git === undefined) return true;
  const status = await git.run([
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--ignored=no",
    "--",
    `:(literal)${relative}/`,
  ]);
  const tracked = await git.run(["ls-files", "-z", "--", `:(literal)${relative}/`]);
  const untouched =
    status.code === 0 &&
    status.stdout.length === 0 &&
    tracked.code === 0 &&
    tracked.stdout.length > 0;
  return !untouched;
}

/** Folders git ignores as a whole, `dir/` form, root-relative. */
async function ignoredFolders(git: GitClient): Promise<Set<string>> {
  const listed = await git.run([
    "ls-files",
    "-z",
    "--others",
    "--ignored",
    "--exclude-standard",
    "--directory",
  ]);
  if (listed.code !== 0) return new Set();
  return new Set(
    listed.stdout
      .toString("utf8")
      .split("\0")
      .filter((entry) => entry.endsWith("/")),
  );
}
