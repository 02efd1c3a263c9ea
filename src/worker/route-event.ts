// Route mode (Actions-only): the workflow is triggered by the issue, comment or
// review itself, so a repository needs no server. The run does exactly what the app does
// with a delivery (the same reader, deciders and effects), then cues the worker by
// dispatching this same workflow: the job's work runs in its own `cfa-<N>` concurrency
// group, and a /withdraw can cancel the run in progress instead of queueing behind it.

import { createGitHubForge } from "../adapters/github/index.js";
import { configFromText } from "../github-events/config-from-text.js";
import { createDedupe } from "../github-events/dedupe.js";
import { createGitHubCues } from "../github-events/github-cues.js";
import { handleDelivery, type DeliveryOutcome } from "../github-events/handle-delivery.js";
import { livePermission } from "../github-events/live-permission.js";
import { ownWorkflow } from "./own-workflow.js";
import { runKey, type WorkerContext } from "./worker-context.js";

export async function routeEvent(
  w: WorkerContext,
  event: { name: string; payload: unknown },
): Promise<DeliveryOutcome> {
  const { env, github, logger } = w;
  const workflow = ownWorkflow(env.GITHUB_WORKFLOW_REF);
  const outcome = await handleDelivery(
    { id: `run-${runKey(env)}`, name: event.name, payload: event.payload },
    {
      forRepo: (repo) => {
        const forge = createGitHubForge({
          octokit: github,
          owner: repo.owner,
          repo: repo.repo,
          botLogin: env.CFA_BOT_LOGIN,
          repoDir: env.GITHUB_WORKSPACE,
          logger,
        });
        return {
          effects: createGitHubCues(github, repo),
          loadConfig: async () => configFromText(await forge.readConfig()),
          permission: (login) => livePermission(github, repo, login),
        };
      },
      // One delivery per run: nothing to remember across runs (the worker dedupes by its
      // cursor, so a duplicate cue costs one run).
      dedupe: createDedupe(16),
      logger,
      botLogins: () => Promise.resolve([env.CFA_BOT_LOGIN]),
      ...(workflow === null ? {} : { workflow }),
    },
  );
  if (outcome.kind === "ignored") logger.info(`cfa/worker: nothing to do: ${outcome.reason}`);
  return outcome;
}
