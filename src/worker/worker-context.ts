// What every worker mode is given: the parsed environment, a GitHub client, a log that
// redacts, and the pieces tests replace (the model, the clock, the abort signal).

import type { Redact } from "../secrets/index.js";
import type { ProgressLine } from "../engine/index.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import type { Model } from "../ports/model.js";
import type { WorkerGitHub } from "./github-client.js";
import type { WorkerEnv } from "./worker-env.js";
import type { ToolSetName } from "../records/tool-sets.js";

export interface WorkerContext {
  env: WorkerEnv;
  /** The process environment agents' commands start from. */
  processEnv: Readonly<Record<string, string | undefined>>;
  github: WorkerGitHub;
  logger: Logger;
  redact: Redact;
  model?: Model;
  toolSet?: ToolSetName;
  clock?: Clock;
  signal?: AbortSignal;
  /** A clean stop: see WorkerOptions.stop. */
  stop?: AbortSignal;
  deadlineTimer?: (ms: number, fire: () => void) => () => void;
  progress?: (line: ProgressLine) => void;
  /** Appends Markdown to the run's summary page (GITHUB_STEP_SUMMARY), when there is one. */
  summary(markdown: string): Promise<void>;
}

export function runUrl(env: WorkerEnv): string | null {
  if (env.GITHUB_RUN_ID === undefined) return null;
  return `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
}

export function runKey(env: WorkerEnv): string {
  return `${env.GITHUB_RUN_ID ?? "local"}.${env.GITHUB_RUN_ATTEMPT ?? "1"}`;
}
