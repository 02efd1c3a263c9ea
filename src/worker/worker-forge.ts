// The forge a worker mode reads and dispatches through when it is not running a job's wake
// (the sweep, a task run's wake-lead step): the run's repository, its token and the hook that
// forgets a revoked one. A job's wake builds its own, with the job's workspace (wire-github.ts).

import { createGitHubForge, type GitHubForge } from "../adapters/github/index.js";
import type { WorkerContext } from "./worker-context.js";

export function workerForge(w: WorkerContext): GitHubForge {
  const { env, github, logger } = w;
  return createGitHubForge({
    octokit: github,
    owner: env.owner,
    repo: env.repo,
    botLogin: env.CFA_BOT_LOGIN,
    repoDir: env.GITHUB_WORKSPACE,
    token: github.token,
    forgetToken: github.forgetToken,
    logger,
  });
}
