// One look at a work tree before a commit: `git status` tells at once which
// folders the repository ignores (for the nested-repository sweep), whether anything outside
// the engine's own records differs from the index (only then is `git add` needed), and
// whether anything is staged against HEAD. It replaces `ls-files --ignored`, `add --all`
// and `diff-index` on a commit where no agent changed the tree (most of a job's commits:
// posted comments, questions, transitions), each a git process of 5–15 ms.
//
// Porcelain v1 with -z (https://git-scm.com/docs/git-status#_porcelain_format_version_1):
// `XY PATH\0`, X the index against HEAD, Y the tree against the index, `??` untracked,
// `!!` ignored; renames are off, so every entry is one path. `--ignored=matching` lists a
// folder matching an ignore pattern once, as `dir/`, and nothing inside it
// (https://git-scm.com/docs/git-status#Documentation/git-status.txt---ignoredltmodegt): a
// folder whose files are ignored one by one is not listed, so the sweep looks inside it,
// which is the safe side. Submodules follow the hardened config (diff.ignoreSubmodules=all):
// git never starts inside one; a gitlink only enters the index through `git add`, which the
// caller runs (with its gitlink check) whenever anything outside the records changed.

import type { GitClient } from "./git-client.js";
import { dependencyExcludes } from "./dependency-folders.js";

export interface TreeStatus {
  /** Folders git ignores as a whole, `dir/` form, root-relative. */
  ignoredFolders: Set<string>;
  /** Anything outside `inside` untracked, changed or staged: the tree must be added. */
  changedOutside: boolean;
  /** Anything under `inside` staged against HEAD. */
  stagedInside: boolean;
  /**
   * Every entry but the ignored ones: `XY` and the path (`??` untracked). The workflow-file
   * check reads the same look instead of a status of its own (workflow-files.ts).
   */
  entries: { code: string; path: string }[];
}

export async function treeStatus(
  git: GitClient,
  inside: string,
  options: {
    /**
     * false: git does not write the index it refreshed (`--no-optional-locks`:
     * https://git-scm.com/docs/git#Documentation/git.txt---no-optional-locks), so a look taken
     * outside the repo's lock never holds `index.lock` while the engine commits there.
     */
    optionalLocks?: boolean;
  } = {},
): Promise<TreeStatus | null> {
  const result = await git.run([
    ...(options.optionalLocks === false ? ["--no-optional-locks"] : []),
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--ignored=matching",
    "--no-renames",
    // What `git add` leaves out (stage-tree.ts), this leaves out too: a setup's node_modules
    // is neither listed file by file here nor a reason to run `git add`.
    "--",
    ".",
    ...dependencyExcludes(),
  ]);
  if (result.code !== 0) return null;
  const status: TreeStatus = {
    ignoredFolders: new Set(),
    changedOutside: false,
    stagedInside: false,
    entries: [],
  };
  for (const entry of result.stdout.toString("utf8").split("\0")) {
    if (entry.length < 4) continue;
    const x = entry[0]!;
    const y = entry[1]!;
    const file = entry.slice(3);
    if (x === "!" && y === "!") {
      if (file.endsWith("/")) status.ignoredFolders.add(file);
      continue;
    }
    status.entries.push({ code: `${x}${y}`, path: file });
    const underInside = file === inside || file.startsWith(`${inside}/`);
    if (!underInside) status.changedOutside = true;
    else if (x !== " " && x !== "?") status.stagedInside = true;
  }
  return status;
}

/**
 * The files of a look that `git add --all` would stage, outside `exclude` (a root-relative
 * folder), as `ls-files --others --modified` lists them (files-git-would-add.ts): untracked
 * ones (`??`) and tracked ones the tree changed, a deletion or a conflict included (Y is not
 * blank); not those only staged, which the tree did not change since.
 */
export function filesToAdd(look: TreeStatus, exclude: string): string[] {
  return look.entries
    .filter(({ code }) => code === "??" || code[1] !== " ")
    .map(({ path }) => path)
    .filter((file) => file !== exclude && !file.startsWith(`${exclude}/`));
}
