// What every worker mode that runs a wake wires from its context (a job's run, a task's own
// run): the run's repository, token, model, clock and environment, and the work area under
// RUNNER_TEMP. Each mode adds its own (run-job.ts: the pushes' workflow rule, the task runs'
// dispatch, links to the server).

import type { WorkerContext } from "./worker-context.js";
import { workRootUnder, type GitHubWiring } from "./wire-github.js";

export function workerWiring(w: WorkerContext): GitHubWiring {
  const { env, logger } = w;
  return {
    github: w.github,
    owner: env.owner,
    repo: env.repo,
    botLogin: env.CFA_BOT_LOGIN,
    token: w.github.token,
    forgetToken: w.github.forgetToken,
    repoDir: env.GITHUB_WORKSPACE,
    workRoot: workRootUnder(env.RUNNER_TEMP),
    logger,
    ...(w.model === undefined ? {} : { model: w.model }),
    ...(w.toolSet === undefined ? {} : { toolSet: w.toolSet }),
    anthropicApiKey: env.settings.ANTHROPIC_API_KEY,
    ...(w.clock === undefined ? {} : { clock: w.clock }),
    ...(w.progress === undefined ? {} : { progress: w.progress }),
    env: w.processEnv,
  };
}
