// The files `git add --all` would stage under some pathspecs: new ones git does not ignore
// and changed ones it tracks. Asked before staging by the checks that must see a file before
// git takes it (oversized-files.ts: too large to push; stage-tree.ts: names with control
// characters).

import type { GitClient } from "./git-client.js";

/** Root-relative names, or null when git could not list them. */
export async function filesGitWouldAdd(
  git: GitClient,
  pathspecs: readonly string[],
): Promise<string[] | null> {
  const listed = await git.run([
    "ls-files",
    "-z",
    "--others",
    "--modified",
    "--exclude-standard",
    "--",
    ...pathspecs,
  ]);
  if (listed.code !== 0) return null;
  return listed.stdout
    .toString("utf8")
    .split("\0")
    .filter((file) => file !== "");
}
