// Commits what is in a work tree (all of it, or the named paths) when anything differs from
// HEAD. Hooks and signing are skipped: the bot's bookkeeping commits must not depend on a
// developer's local hooks or a signing agent.

import type { GitClient } from "./git-client.js";
import { gitOutput } from "./git-at.js";

/** Returns true when a commit was made. `git` must run in the work tree with an identity. */
export async function commitPending(
  git: GitClient,
  message: string,
  paths?: readonly string[],
): Promise<boolean> {
  if (paths === undefined) {
    await gitOutput(git, ["add", "--all"]);
  } else if (paths.length > 0) {
    // :(literal) so a file named `*.md` is that file, not a pattern.
    await gitOutput(git, ["add", "--", ...paths.map((file) => `:(literal)${file}`)]);
  }
  const staged = await gitOutput(git, ["diff", "--cached", "--name-only", "-z"]);
  if (staged === "") return false;
  await gitOutput(git, ["commit", "--quiet", "--no-verify", "--no-gpg-sign", "--message", message]);
  return true;
}
