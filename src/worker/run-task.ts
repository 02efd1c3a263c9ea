// Task mode: the workflow's `task` job, dispatched by a job's lead with
// inputs job, task and epoch. It fetches the job's branches and reads the job branch's state
// before anything else: a run that is not the one the lead trusts now (a stale epoch, the task
// no longer open, the job withdrawn, ended or paused) exits at once with one line, having
// written nothing. Otherwise it runs the task's worker (src/engine/wake-task.ts) on the
// task's branch until its mailbox is empty or the run's time margin: it never writes
// `cfa/<N>`, the bus, the state, the journal's branch or a comment — its session's forge
// refuses every write, and its one push is the task branch's, leased, with the token the
// worker's pushes carry (as a header in git's environment, never in argv or .git/config).

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { pushEnvironment } from "../adapters/github/index.js";
import { configFromText } from "../github-events/config-from-text.js";
import { readTaskRunStanding, wakeTask } from "../engine/index.js";
import { fetchJobBranches } from "./fetch-job-branches.js";
import { runStop } from "./wake-again.js";
import type { WorkerContext } from "./worker-context.js";
import { wireGitHub } from "./wire-github.js";
import { workerWiring } from "./worker-wiring.js";

const run = promisify(execFile);

export interface TaskRunResult {
  exitCode: number;
  /** Why the run did no work (null: it worked). */
  skipped: string | null;
}

export async function runTask(
  mode: { job: number; task: string; epoch: number },
  w: WorkerContext,
): Promise<TaskRunResult> {
  const { env, logger } = w;
  const at = `job #${mode.job} task ${mode.task} (epoch ${mode.epoch})`;
  await fetchJobBranches({ repoDir: env.GITHUB_WORKSPACE, job: mode.job, token: w.github.token });
  const standing = await readTaskRunStanding(env.GITHUB_WORKSPACE, mode.job, mode.task, mode.epoch);
  if (!standing.ok) {
    // Nothing to fail: the lead moved on; its next wake (this job's last step) sees why.
    logger.info(`cfa/worker: ${at}: ${standing.reason}; this run exits without writing`);
    return { exitCode: 0, skipped: standing.reason };
  }
  const { deps, forge } = wireGitHub(workerWiring(w));
  const loaded = configFromText(await forge.readConfig());
  if (!loaded.ok) {
    // The lead's run says what is wrong with it, once; this run only stops.
    logger.warn(`cfa/worker: ${at}: .github/cfa.yml is not valid; this run exits`);
    return { exitCode: 0, skipped: ".github/cfa.yml is not valid" };
  }
  const stop = runStop(w, loaded.config.limits);
  try {
    const summary = await wakeTask(
      {
        job: mode.job,
        task: mode.task,
        epoch: mode.epoch,
        runId: env.GITHUB_RUN_ID ?? "0",
        pushEnv: () => pushEnv(env.GITHUB_WORKSPACE, w.github.token),
        stop: stop.signal,
        config: loaded.config,
      },
      deps,
    );
    logger.info(
      `cfa/worker: ${at}: ${summary.turns} turn(s) recorded${summary.done ? ", the task is done" : ""}${summary.stopped === null ? "" : `; stopped: ${summary.stopped}`}`,
    );
    await w.summary(
      `### cfa job #${mode.job}, task ${mode.task} (epoch ${mode.epoch})\n\n- turns: ${summary.turns}\n- done: ${summary.done ? "yes" : "no"}\n${summary.stopped === null ? "" : `- stopped: ${summary.stopped}\n`}`,
    );
    return { exitCode: 0, skipped: summary.turns === 0 ? summary.stopped : null };
  } catch (error) {
    // The run goes red: the lead's watch cancels it and dispatches the task once more.
    logger.error(
      `cfa/worker: ${at} failed: ${w.redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error))}`,
    );
    return { exitCode: 1, skipped: null };
  } finally {
    stop.dispose();
  }
}

/** git's environment for a push to the clone's remote: the token as a header, nothing else. */
async function pushEnv(
  repoDir: string,
  token: string | (() => Promise<string>),
): Promise<Record<string, string>> {
  const url = (await run("git", ["remote", "get-url", "origin"], { cwd: repoDir })).stdout.trim();
  const value = typeof token === "function" ? await token() : token;
  const all = pushEnvironment(process.env, { url, token: value });
  // Only git's own settings: the engine's git keeps its hardened environment otherwise.
  return Object.fromEntries(Object.entries(all).filter(([k]) => k.startsWith("GIT_")));
}
