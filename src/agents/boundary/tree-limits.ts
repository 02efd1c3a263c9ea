// How deep and how long a path in a workspace may be. A tree ~2,000 folders
// deep, made by one `mkdir` loop, wedged the job: paths past Linux's PATH_MAX (4,096 bytes,
// limits.h) make `git add` fail with "fatal: Invalid path" (a task can never be closed),
// `git clean` exit 1 (the reset every later wake starts with throws), a checkout into a
// worktree whose own path is longer fail, and a walk that holds a folder open per level runs
// out of descriptors. git's own guard is far above ours and only bounds reading trees:
// core.maxTreeDepth, "the maximum depth Git is willing to recurse while traversing a tree",
// 2,048 by default and 512 in MSVC builds (git-config(1)).
//
// The bounds are a code repository's, with room to spare:
// - depth: GitHub's "Repository limits" page recommends a directory depth of at most 50
//   (https://docs.github.com/en/repositories/creating-and-managing-repositories/repository-limits:
//   "Directory depth: 50", deep trees slow history walks); 64 lets every tree GitHub calls
//   healthy through;
// - length: a root-relative path of at most 1,024 bytes leaves three quarters of PATH_MAX to
//   wherever the tree is checked out (a runner's work folder, a task's worktree, a
//   reviewer's clone).
//
// Past them the after-command check removes the deep part and tells the agent, the file
// tools refuse to create it, and the walkers never go below it.

/** Folders below the workspace root a path may pass through (`a/b/c/file`: 3). */
export const MAX_TREE_DEPTH = 64;
/** UTF-8 bytes of a root-relative path. */
export const MAX_TREE_PATH_BYTES = 1024;

/** Why `relative` (root-relative, `/`-separated) is out of bounds, or null. */
export function treeLimitExceeded(
  relative: string,
  kind: "file" | "dir" = "file",
): "depth" | "length" | null {
  if (Buffer.byteLength(relative) > MAX_TREE_PATH_BYTES) return "length";
  const parts = relative.split("/").filter((part) => part !== "" && part !== ".");
  const folders = kind === "dir" ? parts.length : parts.length - 1;
  return folders > MAX_TREE_DEPTH ? "depth" : null;
}

/** A long path shown briefly: its first folders, how many are left out, and its last name. */
export function shortPath(relative: string): string {
  const parts = relative.split("/");
  const shown =
    parts.length <= 6
      ? relative
      : `${parts.slice(0, 3).join("/")}/…(${parts.length - 4} more)…/${parts.at(-1)}`;
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

/** One line for the agent: what was removed, and why. */
export function outOfBoundsNote(relative: string, why: "depth" | "length"): string {
  const limit =
    why === "depth"
      ? `folders nest at most ${MAX_TREE_DEPTH} deep in a workspace`
      : `a path in a workspace is at most ${MAX_TREE_PATH_BYTES} bytes long`;
  return `cfa: removed ${shortPath(relative)} and everything below it: ${limit} (git and every checkout of the branch would fail past it). Keep the tree shallower and names shorter.`;
}
