// The worker, start to end (run → runner → main): parse the environment and the
// mode, wire a client and a redacting log, run the mode, map the outcome to an exit code.
// Cancellation (Actions sends SIGINT, then SIGTERM) stops the wake cleanly on SIGINT, so the
// job's records are written and pushed before the runner stops (main.ts).

import { ConfigError } from "../config/index.js";
import {
  createRedactor,
  processRedactor,
  registerEnvSecrets,
  reportRedactions,
} from "../secrets/index.js";
import type { ProgressLine } from "../engine/index.js";
import type { Clock } from "../ports/clock.js";
import type { Model } from "../ports/model.js";
import { outboundText } from "../comments/outbound-text.js";
import { createActionsLogger, printToActions, type Print } from "./actions-logger.js";
import {
  asWorkerGitHub,
  createWorkerGitHub,
  type GitHubPacing,
  type WorkerCredentials,
  type WorkerGitHub,
} from "./github-client.js";
import { routeEvent } from "./route-event.js";
import { runJob } from "./run-job.js";
import { runTask } from "./run-task.js";
import { wakeLead } from "./wake-lead.js";
import { stepSummary } from "./step-summary.js";
import { sweep } from "./sweep.js";
import type { WorkerContext } from "./worker-context.js";
import type { ToolSetName } from "../records/tool-sets.js";
import { parseWorkerEnv } from "./worker-env.js";
import { resolveWorkerMode, WorkerUsageError } from "./worker-mode.js";

export interface WorkerOptions {
  print?: Print;
  /** Replaces the Anthropic model (tests: the scripted model). */
  model?: Model;
  /** The tools a job started now gets; default CURRENT_TOOL_SET (tests: their recording's). */
  toolSet?: ToolSetName;
  clock?: Clock;
  signal?: AbortSignal;
  /** Stops the wake cleanly (a cancelled run's SIGINT): see engine/job/wake-stop.ts. */
  stop?: AbortSignal;
  /**
   * Starts the run's own deadline timer (limits.runMinutes less limits.stopMarginMinutes);
   * returns how to cancel it. Default setTimeout; tests fire it when they choose.
   */
  deadlineTimer?: (ms: number, fire: () => void) => () => void;
  /** Replaces the client built from the environment (tests). */
  github?: Parameters<typeof asWorkerGitHub>[0];
  /** GitHub's pace, shrunk in tests so a rate limit's wait is milliseconds (github-client.ts). */
  githubPacing?: GitHubPacing;
}

/** The token of a client a test passed in: the environment's, for git. */
function workflowToken(credentials: WorkerCredentials) {
  const token = credentials.kind === "token" ? credentials.token : "";
  return { token: async () => token, forgetToken: () => undefined, secrets: () => [token] };
}

export async function runWorker(
  argv: readonly string[],
  processEnv: Readonly<Record<string, string | undefined>>,
  options: WorkerOptions = {},
): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  // Every secret-named variable (GITHUB_TOKEN, ANTHROPIC_API_KEY, PRIVATE_KEY…), anything
  // token-shaped and every token the client mints later is cut from every line, comment,
  // check run and commit.
  registerEnvSecrets(processEnv);
  let clientSecrets: () => readonly string[] = () => [];
  const redact = createRedactor(() => clientSecrets());
  const logger = createActionsLogger(print, redact);
  reportRedactions((count, where) =>
    logger.warn(`cfa/redact: ${count} secret${count === 1 ? "" : "s"} removed from ${where}`),
  );
  try {
    const env = parseWorkerEnv(processEnv);
    const mode = resolveWorkerMode({
      argv,
      eventName: env.GITHUB_EVENT_NAME,
      eventPath: env.GITHUB_EVENT_PATH,
      job: env.CFA_JOB,
      task: env.CFA_TASK,
      epoch: env.CFA_EPOCH,
      wakeLead: env.CFA_WAKE_LEAD,
    });
    const github: WorkerGitHub =
      options.github === undefined
        ? createWorkerGitHub({
            credentials: env.credentials,
            baseUrl: env.GITHUB_API_URL,
            logger,
            // Token expiry is read against the same clock as everything else in the run.
            ...(options.clock === undefined ? {} : { clock: options.clock }),
            ...(options.githubPacing === undefined ? {} : { pacing: options.githubPacing }),
          })
        : asWorkerGitHub(options.github, workflowToken(env.credentials));
    clientSecrets = () => github.secrets();
    const w: WorkerContext = {
      env,
      processEnv,
      github,
      logger,
      redact,
      // The summary page renders Markdown: redacted, and no mention or closing keyword.
      summary: (markdown) =>
        stepSummary(env.GITHUB_STEP_SUMMARY)(
          outboundText(processRedactor().redact(markdown, "the step summary")),
        ),
      progress: (line: ProgressLine) =>
        printToActions(
          print,
          "info",
          redact(`${line.at} #${line.job} ${line.who} ${line.event} ${line.detail}`),
        ),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.toolSet === undefined ? {} : { toolSet: options.toolSet }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.stop === undefined ? {} : { stop: options.stop }),
      ...(options.deadlineTimer === undefined ? {} : { deadlineTimer: options.deadlineTimer }),
    };
    switch (mode.kind) {
      case "job":
        return (await runJob(mode.job, w)).exitCode;
      case "task":
        return (await runTask(mode, w)).exitCode;
      case "wake-lead":
        return await wakeLead(w, mode.job);
      case "sweep":
        return (await sweep(w, { dryRun: mode.dryRun })).exitCode;
      case "route":
        await routeEvent(w, { name: mode.event, payload: mode.payload });
        return 0;
      default: {
        const never: never = mode;
        throw new Error(`cfa/worker: unhandled mode ${JSON.stringify(never)}`);
      }
    }
  } catch (error) {
    // Errors before a job is known (the environment, the usage) and a router's failure:
    // logged, never posted, and the run fails.
    if (error instanceof ConfigError || error instanceof WorkerUsageError) {
      logger.error(error.message);
    } else {
      logger.error(
        `cfa/worker: ${redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error))}`,
      );
    }
    return 1;
  }
}
