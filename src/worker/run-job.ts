// Job mode: wake one job with the real engine on this runner. The worker is
// thin: it checks the configuration, fetches the job's branches, refuses a start nobody
// allowed, wakes, and reports. A failure is posted once on the issue and the run exits
// non-zero; nothing is swallowed.

import { rm } from "node:fs/promises";
import { join } from "node:path";
import { isGitHubCredentials, isGitHubOutage } from "../adapters/github/index.js";
import { configErrorComment, isSameConfigError } from "../comments/config-error-comment.js";
import { configFromText } from "../github-events/config-from-text.js";
import { postOnce } from "../github-events/post-once.js";
import { wake, type WakeSummary } from "../engine/index.js";
import { failureComment, isSameFailure } from "../comments/failure-comment.js";
import { fetchJobBranches } from "./fetch-job-branches.js";
import { forgeComments } from "./forge-comments.js";
import { jobPaths } from "../records/job-paths.js";
import { guardJobStart } from "./job-start-guard.js";
import { skipRefused } from "./skip-refused.js";
import { runKey, runUrl, type WorkerContext } from "./worker-context.js";
import { wireGitHub, workRootUnder } from "./wire-github.js";
import { workerWiring } from "./worker-wiring.js";
import { runStop, wakeAgain } from "./wake-again.js";
import { ownWorkflow } from "./own-workflow.js";

export interface JobRunResult {
  exitCode: number;
  summary: WakeSummary | null;
  /** GitHub API calls this run made through the forge (git pushes excluded). */
  apiCalls: number;
}

export async function runJob(job: number, w: WorkerContext): Promise<JobRunResult> {
  const { env, logger } = w;
  // Known once the repository's config is read, before the first push.
  let pushWorkflows = false;
  let workflow = "cfa.yml";
  const { deps, forge } = wireGitHub({
    ...workerWiring(w),
    pushWorkflows: () => pushWorkflows,
    // The project lead's tasks in runs of their own (not all sharing this runner's cores and time
    // limit), the `task` job of this run's own workflow (a repository without it answers 422: its
    // tasks run here).
    taskRuns: {
      workflow: () => ownWorkflow(env.GITHUB_WORKFLOW_REF) ?? workflow,
      ref: () => forge.defaultBranch(),
    },
    // Links in comments point where people read the repository: the runner's server, which
    // is GitHub Enterprise Server's own on an instance (Actions sets GITHUB_SERVER_URL,
    // https://docs.github.com/en/actions/reference/workflows-and-actions/variables).
    repoUrl: `${env.GITHUB_SERVER_URL.replace(/\/+$/, "")}/${env.GITHUB_REPOSITORY}`,
  });
  const result = (exitCode: number, summary: WakeSummary | null): JobRunResult => ({
    exitCode,
    summary,
    apiCalls: forge.apiCalls(),
  });
  try {
    // One read for the issue, its comments, the pull request, its reviews, who labelled it
    // and the config (one GraphQL query); the wake's first reads are answered from it.
    const view = await forge.readJob(job, jobPaths(job).branch);
    // The engine would refuse a bad file too; checked here first so the comment is the
    // same one the app posts, found again whoever posted it (one comment).
    const loaded = configFromText(await forge.readConfig());
    if (!loaded.ok) {
      const { body, digest } = configErrorComment(job, loaded.errors);
      await postOnce(forgeComments(forge), job, body, isSameConfigError(digest), [forge.botLogin]);
      logger.warn(`cfa/worker: .github/cfa.yml is not valid; job #${job} does not run`);
      return result(0, null);
    }
    pushWorkflows = loaded.config.pushWorkflows;
    workflow = loaded.config.workflow;
    // Each run starts from what GitHub holds: a self-hosted runner may keep an earlier
    // run's worktrees, which would pin the branches the fetch must update.
    await rm(join(workRootUnder(env.RUNNER_TEMP), String(job)), { recursive: true, force: true });
    const fetched = await fetchJobBranches({
      repoDir: env.GITHUB_WORKSPACE,
      job,
      token: w.github.token,
    });
    let requester: string | undefined;
    if (!fetched.job) {
      const guard = await guardJobStart(view, job, loaded.config, (login) =>
        forge.permission(login),
      );
      if (!guard.ok) {
        logger.warn(`cfa/worker: job #${job} is not started: ${guard.reason}`);
        return result(0, null);
      }
      // The person who labelled the issue is the one the job is for.
      requester = guard.by;
      logger.info(`cfa/worker: starting job #${job} (labelled by @${guard.by})`);
    } else {
      logger.info(`cfa/worker: job #${job}: fetched ${fetched.branches.join(", ")}`);
    }
    // What the app refused before dispatching is not refused again.
    const engineDeps = {
      ...deps,
      forge: skipRefused(deps.forge, job, { approvers: loaded.config.approvers }),
    };
    const stop = runStop(w, loaded.config.limits);
    let summary: WakeSummary;
    try {
      summary = await wake(job, engineDeps, {
        config: loaded.config,
        ...(requester === undefined ? {} : { requester }),
        ...(w.signal === undefined ? {} : { signal: w.signal }),
        stop: stop.signal,
        stopAt: stop.stopAt,
      });
    } finally {
      stop.dispose();
    }
    await wakeAgain(w, job, summary, {
      workflow: loaded.config.workflow,
      ref: () => forge.defaultBranch(),
    });
    logger.info(
      `cfa/worker: job #${job} is ${summary.state ?? "not started"}; waiting on ${summary.waitingOn}; ${forge.apiCalls()} GitHub API calls`,
    );
    for (const note of summary.notes) logger.warn(`cfa/worker: job #${job}: ${note}`);
    await w.summary(
      `### cfa job #${job}\n\n- state: **${summary.state ?? "not started"}**\n- waiting on: ${summary.waitingOn}\n- GitHub API calls: ${forge.apiCalls()}\n`,
    );
    return result(0, summary);
  } catch (error) {
    const reason = w.redact(describe(error));
    if (w.signal?.aborted === true) {
      // Cancelled (a /withdraw, or a person): the next run resumes from the last turn.
      logger.warn(`cfa/worker: job #${job}: the run was cancelled: ${reason}`);
      return result(1, null);
    }
    if (isPushStalled(error)) {
      // The job branch moved under us and could not be taken in (engine/job/publish-job-branch.ts):
      // nobody's failure, nothing to tell the person; the next wake starts from GitHub's branch.
      logger.error(`cfa/worker: job #${job}: ${reason}`);
      return result(1, null);
    }
    if (isGitHubCredentials(error)) {
      // The token itself was refused — configuration, not the job's failure.
      // Nothing can be posted with it; the job stays live and carries on at its next wake.
      logger.error(
        `cfa/worker: job #${job}: GitHub refused the credentials (401), so the run stops here with the job live, as its last step left it. Fix the app's credentials (APP_ID and PRIVATE_KEY, or the workflow token's permissions); the next event on the issue or the sweep carries the job on: ${reason}`,
      );
      return result(1, null);
    }
    if (isGitHubOutage(error)) {
      // GitHub failed (or rate-limited us) past the client's retries: not the job's fault and
      // nothing to tell the person; the run goes red and the sweep wakes the job again.
      logger.error(
        `cfa/worker: job #${job}: GitHub did not answer in time, so the run stops here; the job is as its last step left it and the next sweep wakes it again: ${reason}`,
      );
      return result(1, null);
    }
    logger.error(`cfa/worker: job #${job} failed: ${reason}`);
    try {
      await postOnce(
        forgeComments(forge),
        job,
        failureComment({ job, reason, runUrl: runUrl(env), runKey: runKey(env) }),
        isSameFailure(runKey(env)),
        [forge.botLogin],
      );
    } catch (postError) {
      logger.error(
        `cfa/worker: could not post the failure on issue #${job} either: ${w.redact(describe(postError))}`,
      );
    }
    return result(1, null);
  }
}

function isPushStalled(error: unknown): boolean {
  return (error as Error | undefined)?.name === "PushStalledError";
}

function describe(error: unknown): string {
  if (error instanceof AggregateError) {
    return [error.message, ...error.errors.map((e) => `- ${describe(e)}`)].join("\n");
  }
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : "";
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}
