// Wake-lead mode: the `task` job's last step, `if: always()`, dispatches a
// run of the job's lead whatever became of the task run — done, its time up, crashed or
// cancelled — so the lead folds what the task did (or notices the run died) without waiting
// for the hourly sweep. It is the same dispatch as a lead run's own wake-again (wake-again.ts):
// the new run waits in the job's concurrency group (`cfa-<N>`) behind a lead already running.
// It reads nothing of the job and writes nothing but the dispatch.

import { configFromText } from "../github-events/config-from-text.js";
import { createGitHubCues } from "../github-events/github-cues.js";
import { ownWorkflow } from "./own-workflow.js";
import { workerForge } from "./worker-forge.js";
import type { WorkerContext } from "./worker-context.js";

export async function wakeLead(w: WorkerContext, job: number): Promise<number> {
  const { env, github, logger } = w;
  const repo = { owner: env.owner, repo: env.repo };
  const forge = workerForge(w);
  try {
    // In Actions the run's own workflow file; elsewhere the one .github/cfa.yml names.
    let workflow = ownWorkflow(env.GITHUB_WORKFLOW_REF);
    if (workflow === null) {
      const loaded = configFromText(await forge.readConfig());
      workflow = loaded.ok ? loaded.config.workflow : "cfa.yml";
    }
    await createGitHubCues(github, repo).dispatch(workflow, await forge.defaultBranch(), job);
  } catch (error) {
    logger.warn(
      `cfa/worker: job #${job}: could not wake its lead after this task run: ${w.redact(error instanceof Error ? error.message : String(error))}; give the task job \`actions: write\` (docs/install.md); the hourly sweep wakes it meanwhile`,
    );
    return 1;
  }
  logger.info(`cfa/worker: job #${job}: woke its lead to fold this task run`);
  return 0;
}
