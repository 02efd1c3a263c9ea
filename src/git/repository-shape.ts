// A folder git would take for a repository of its own. Nested repositories
// are found by their `.git` (src/adapters/git/nested-repos.ts); a bare one has none: the
// folder itself is the git dir. git's `is_git_directory()` (setup.c) accepts a folder when
// its `HEAD` is a valid head (a `ref: refs/…` file, a link into refs/, or an object id) and
// `objects` and `refs` pass `access(X_OK)` — folders, links to folders (`objects -> .`), or
// even executable files — looked up in the folder named by its `commondir` file when there
// is one. With `safe.bareRepository=all`, git's default (git-config(1)), any git command run
// inside such a folder of a fresh clone uses it, and its `config` (`core.fsmonitor`,
// `core.worktree=..`, hooks) runs code on the reviewer's machine.
//
// Matched by name alone, broader than git on purpose: `HEAD` together with any of
// `objects`, `refs`, `commondir` or `config`, whatever their type or content, in any letter
// case and with the code points HFS+ ignores (a case-insensitive filesystem finds `head`
// for `HEAD`: git's own is_hfs_dotgit() folds names the same way).

import { foldName } from "../agents/boundary/fold-name.js";

const COMPANIONS = new Set(["objects", "refs", "commondir", "config"]);

/** Whether a folder holding entries named `names` is shaped like a git repository. */
export function isRepositoryShape(names: Iterable<string>): boolean {
  let head = false;
  let companion = false;
  for (const name of names) {
    const folded = foldName(name);
    if (folded === "head") head = true;
    else if (COMPANIONS.has(folded)) companion = true;
    if (head && companion) return true;
  }
  return false;
}

/** What the agent is told when a repository-shaped folder of its is removed. */
export function shapedFolderNote(folder: string): string {
  return `cfa: removed ${folder}: a folder holding HEAD with objects, refs, commondir or config is a git repository to git (a bare one), and repositories are not allowed in a workspace: one committed would run its config on the machine of whoever runs git inside it. Keep such data out of the tree, or under another name.`;
}
