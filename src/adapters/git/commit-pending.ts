// Commits what is in a work tree (all of it, or the named paths) when anything differs from
// HEAD. Hooks and signing never run (git-client.ts); a gitlink (a nested repository) or a
// path git refuses is left out (stage-tree.ts), so nothing an agent wrote in the tree can
// run code or keep the commit from happening; nor does a file over the size limit (GitHub
// refuses a push that holds one).

import type { GitClient } from "../../git/git-client.js";
import { gitOutput } from "../../git/git-at.js";
import { stageTree } from "../../git/stage-tree.js";

/** Returns true when a commit was made. `git` must run in the work tree with an identity. */
export async function commitPending(
  git: GitClient,
  message: string,
  paths?: readonly string[],
  options: { exclude?: readonly string[]; maxFileBytes?: number } = {},
): Promise<boolean> {
  if (paths !== undefined && paths.length === 0) return false;
  const { staged } = await stageTree(git, {
    ...(paths === undefined ? {} : { paths }),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes }),
  });
  if (!staged) return false;
  await gitOutput(git, ["commit", "--quiet", "--no-verify", "--no-gpg-sign", "--message", message]);
  return true;
}
