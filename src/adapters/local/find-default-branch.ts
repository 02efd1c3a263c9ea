// Which branch of a local repository is its default branch (README, "Configuration": read
// only from the default branch): what GitHub keeps as a repository setting, the local forge
// resolves once and records (local-forge.ts). Never the checkout's HEAD: a person who checks
// out a job branch, a task branch or a branch made from one (`git checkout -b try-it cfa/1`)
// to try the agents' work would otherwise hand the next `cfa` verb the agents' own
// `.github/cfa.yml` — their setup commands, `network: true`, approvers and caps.
//
// In order, the first that names an existing local branch outside the job namespace:
// - `refs/remotes/origin/HEAD`: a clone's record of the remote's default branch (git clone
//   sets it: https://git-scm.com/docs/git-remote#Documentation/git-remote.txt-emset-headem);
// - `init.defaultBranch`: the name the person's git gives new repositories
//   (https://git-scm.com/docs/git-config#Documentation/git-config.txt-initdefaultBranch);
// - `main`, then `master`.
// A repository whose default branch is none of these says so in one line, with the fix.

import type { GitClient } from "../../git/git-client.js";

/** Branches the engine makes for jobs and tasks (`cfa/<N>`, `cfa/<N>-<task>`). */
const JOB_BRANCHES = "cfa/";

export class DefaultBranchUnknownError extends Error {
  override readonly name = "DefaultBranchUnknownError";
}

export interface FindDefaultBranchOptions {
  /** `init.defaultBranch` as the person's git reads it (all config files); null when unset. */
  initDefaultBranch: string | null;
}

export async function findDefaultBranch(
  git: GitClient,
  options: FindDefaultBranchOptions,
): Promise<string> {
  const originHead = await git.run(["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"]);
  const fromOrigin =
    originHead.code === 0
      ? originHead.stdout
          .toString("utf8")
          .trim()
          .replace(/^refs\/remotes\/origin\//u, "")
      : null;
  const candidates = [fromOrigin, options.initDefaultBranch?.trim() || null, "main", "master"];
  for (const name of candidates) {
    if (name === null || name === "" || name.startsWith(JOB_BRANCHES)) continue;
    const exists = await git.run([
      "rev-parse",
      "--verify",
      "--quiet",
      `refs/heads/${name}^{commit}`,
    ]);
    if (exists.code === 0) return name;
  }
  throw new DefaultBranchUnknownError(
    `cfa: cannot tell this repository's default branch (no origin/HEAD, no branch named by init.defaultBranch${options.initDefaultBranch ? ` (${options.initDefaultBranch})` : ""}, no main or master): name it with \`git config init.defaultBranch <branch>\` in the repository`,
  );
}
