// True for any path component that names (or may alias) a repository's `.git`: the boundary
// refuses it so an agent can never touch hooks, config or objects (docs/sandbox.md: file tools).

import { foldName } from "./fold-name.js";

export function isGitComponent(component: string): boolean {
  const folded = foldName(component);
  // NTFS drops trailing dots and spaces, and `git~1` is the 8.3 short name of `.git`: git
  // itself refuses both in trees (is_ntfs_dotgit), so a workspace copied there stays safe.
  return folded.replace(/[. ]+$/u, "") === ".git" || folded === "git~1";
}
