// Wiring real adapters for one job on an Actions runner: the GitHub forge over the
// workflow's token, the Anthropic model, bubblewrap, git worktrees under RUNNER_TEMP. With
// app/ and cli/, the only place that builds EngineDeps (docs/architecture.md).

import { join } from "node:path";
import { createProviderModel, providerSettings } from "../adapters/providers/provider-model.js";
import {
  createGitHubForge,
  createGitHubTaskRuns,
  type GitHubForge,
} from "../adapters/github/index.js";
import type { TaskRuns } from "../ports/task-runs.js";
import { createGitWorkspaces } from "../adapters/git/index.js";
import type { EngineDeps, ProgressLine } from "../engine/index.js";
import { systemClock, type Clock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import type { Model } from "../ports/model.js";
import { outboundForge } from "../comments/outbound-forge.js";
import { CURRENT_TOOL_SET, type ToolSetName } from "../records/tool-sets.js";
import { processRedactor } from "../secrets/index.js";
import { priceOf, resolveModel, sandboxesHiding } from "../wiring/index.js";
import type { WorkerGitHub } from "./github-client.js";

export interface GitHubWiring {
  github: WorkerGitHub;
  owner: string;
  repo: string;
  botLogin: string;
  /** The token for git pushes, asked for before each one (an app's is refreshed). */
  token: string | (() => Promise<string>);
  /** Drops a token git was refused with (an app's; see GitHubForgeOptions.forgetToken). */
  forgetToken?: () => void;
  repoDir: string;
  /** Usually `$RUNNER_TEMP/cfa-work`. */
  workRoot: string;
  logger: Logger;
  /** The model; by default Anthropic's with this key. */
  model?: Model;
  /** The tools a job started now gets; default CURRENT_TOOL_SET (src/records/tool-sets.ts). */
  toolSet?: ToolSetName;
  anthropicApiKey?: string | undefined;
  clock?: Clock;
  progress?: (line: ProgressLine) => void;
  /** The environment agents' commands start from (secrets are removed here too). */
  env: Readonly<Record<string, string | undefined>>;
  repoUrl?: string;
  /** Whether pushes may change .github/workflows/ (the repository's `pushWorkflows`). */
  pushWorkflows?: () => boolean;
  /**
   * Where a task's own run is dispatched: the workflow file (this run's
   * own, else the repository's `workflow`) and the ref (the default branch). Absent: every
   * task runs in this run.
   */
  taskRuns?: { workflow: () => string; ref: () => Promise<string> };
}

/** Variables no agent command may ever see, whatever the role's allowlist says. */
const SECRET_VARIABLES = [
  "GITHUB_TOKEN",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  // Bedrock and Vertex credentials: the model's, never an agent's.
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE",
  "GOOGLE_GHA_CREDS_PATH",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_URL",
  "ACTIONS_CACHE_URL",
  "ACTIONS_RESULTS_URL",
  "INPUT_GITHUB-TOKEN",
  "INPUT_ANTHROPIC-API-KEY",
];

export function wireGitHub(options: GitHubWiring): { deps: EngineDeps; forge: GitHubForge } {
  const { logger, workRoot, repoDir } = options;
  // Everything the engine posts passes the process's redactor (docs/contributing.md, "Conventions").
  const forge = outboundForge(
    createGitHubForge({
      octokit: options.github,
      owner: options.owner,
      repo: options.repo,
      botLogin: options.botLogin,
      repoDir,
      token: options.token,
      ...(options.forgetToken === undefined ? {} : { forgetToken: options.forgetToken }),
      logger,
      ...(options.repoUrl === undefined ? {} : { repoUrl: options.repoUrl }),
      ...(options.pushWorkflows === undefined ? {} : { pushWorkflows: options.pushWorkflows }),
    }),
    processRedactor(),
  );
  // Claude on the configured provider, its client built at the first call: a
  // wake that only reads replies needs no credentials.
  const provider =
    options.model === undefined
      ? createProviderModel({
          env: {
            ...options.env,
            ...(options.anthropicApiKey !== undefined
              ? { ANTHROPIC_API_KEY: options.anthropicApiKey }
              : {}),
          },
          logger,
        })
      : undefined;
  const modelPort: Model = options.model ?? provider!;
  const env: Record<string, string | undefined> = { ...options.env };
  for (const name of SECRET_VARIABLES) delete env[name];
  const sandboxes = sandboxesHiding(workRoot, logger);
  const deps: EngineDeps = {
    forge,
    model: modelPort,
    configure: (config) => {
      // The repository's read-only paths reach the sandbox made after this.
      sandboxes.configure(config);
      provider?.configure(providerSettings(config));
    },
    resolveModel,
    price: priceOf,
    sandbox: (mode) => sandboxes.sandbox(mode),
    workspaces: (area, options) => createGitWorkspaces({ repoDir, area, logger, ...options }),
    repoDir,
    workRoot,
    clock: options.clock ?? systemClock,
    logger,
    env,
    toolSet: options.toolSet ?? CURRENT_TOOL_SET,
    ...(options.progress === undefined ? {} : { progress: options.progress }),
    ...(options.taskRuns === undefined
      ? {}
      : { taskRuns: actionsTaskRuns(options.github, options, options.taskRuns) }),
  };
  return { deps, forge };
}

export function workRootUnder(runnerTemp: string): string {
  return join(runnerTemp, "cfa-work");
}

/**
 * The TaskRuns port on the worker's own Octokit (src/adapters/github/task-runs.ts): "Create a
 * workflow dispatch event" with `return_run_details` for the run's id, "Get a workflow run"
 * and "Cancel a workflow run" (https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event,
 * https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run,
 * https://docs.github.com/rest/actions/workflow-runs#cancel-a-workflow-run). The workflow is
 * read when a dispatch is made: the repository's configuration names it once it is loaded.
 */
function actionsTaskRuns(
  github: WorkerGitHub,
  at: { owner: string; repo: string },
  where: { workflow: () => string; ref: () => Promise<string> },
): TaskRuns {
  const runs = (workflow: string) =>
    createGitHubTaskRuns(github, { owner: at.owner, repo: at.repo, workflow, ref: where.ref });
  return {
    dispatch: (inputs) => runs(where.workflow()).dispatch(inputs),
    state: (runId) => runs(where.workflow()).state(runId),
    cancel: (runId) => runs(where.workflow()).cancel(runId),
  };
}
