// The rounds of job N a commit holds (records/job-paths.ts: `.cfa/jobs/N/` is the job, each
// follow-up's records are `.cfa/jobs/N.k/` beside it), read from the commit's tree with one
// `git ls-tree`, for a reader that has no worktree of the job: a task's own run, `cfa`.

import type { GitClient } from "./git-client.js";
import { JOBS_DIR, parseRoundDir } from "../records/job-paths.js";

/** Runs git with `args` and gives its stdout, or null when git fails (no such tree). */
export type GitReader = (args: readonly string[]) => Promise<string | null>;

/** The engine's git as a GitReader. */
export const readerOf =
  (git: GitClient): GitReader =>
  async (args) => {
    const result = await git.run(args);
    return result.code === 0 ? result.stdout.toString("utf8") : null;
  };

/** The rounds of `job` whose folder `treeish` holds, oldest first; [] when it holds none. */
export async function jobRoundsAt(git: GitReader, treeish: string, job: number): Promise<number[]> {
  const listed = await git(["ls-tree", "-z", "--name-only", `${treeish}:${JOBS_DIR}`]);
  if (listed === null) return [];
  return listed
    .split("\0")
    .flatMap((name) => {
      const at = parseRoundDir(name);
      return at !== null && at.job === job ? [at.round] : [];
    })
    .sort((a, b) => a - b);
}
