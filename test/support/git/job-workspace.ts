// The job's workspace over a git fixture, as the engine makes it: the area's Workspaces, the
// job's worktree (cfa/1 from main) and the JobRepo over that tree. `maxFileBytes` is
// limits.fileMiB in bytes, for both (without it, neither bounds a file's size).

import { createGitWorkspaces } from "../../../src/adapters/git/index.js";
import { JobRepo } from "../../../src/engine/tree/job-repo.js";
import type { Workspace, Workspaces } from "../../../src/ports/workspaces.js";
import type { GitFixture } from "./git-fixture.js";

export interface JobWorkspace {
  workspaces: Workspaces;
  job: Workspace;
  repo: JobRepo;
}

export async function jobWorkspace(
  fx: GitFixture,
  limits: { maxFileBytes?: number } = {},
): Promise<JobWorkspace> {
  const workspaces = createGitWorkspaces({ repoDir: fx.repo, area: fx.area, ...limits });
  const job = await workspaces.create({ name: "job", branch: "cfa/1", from: "main" });
  const repo = new JobRepo(job.root, undefined, job.gitDir, limits);
  return { workspaces, job, repo };
}
