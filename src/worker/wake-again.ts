// After a run stopped early with the job live — its time nearly up (limits.runMinutes less
// limits.stopMarginMinutes), or cancelled — it dispatches the job's next run itself, so the job
// does not wait for the hourly sweep. The work job needs `actions: write`
// for it (templates/workflows/*.yml). The new run waits in the job's concurrency group
// (`cfa-<N>`) until this one ends, then starts from what this one pushed. A run stopped by a
// withdrawal dispatches nothing: the withdrawal's own run applies it.

import { createGitHubCues } from "../github-events/github-cues.js";
import type { WakeSummary } from "../engine/index.js";
import { ownWorkflow } from "./own-workflow.js";
import { systemClock } from "../ports/clock.js";
import type { WorkerContext } from "./worker-context.js";

export async function wakeAgain(
  w: WorkerContext,
  job: number,
  summary: WakeSummary,
  where: { workflow: string; ref: () => Promise<string> },
): Promise<boolean> {
  if (summary.stopped?.wakeAgain !== true) return false;
  const workflow = ownWorkflow(w.env.GITHUB_WORKFLOW_REF) ?? where.workflow;
  const cues = createGitHubCues(w.github, { owner: w.env.owner, repo: w.env.repo });
  try {
    await cues.dispatch(workflow, await where.ref(), job);
  } catch (error) {
    // A 403 is a work job without `actions: write`: the sweep wakes the job within the hour.
    w.logger.warn(
      `cfa/worker: job #${job} stopped early (${summary.stopped.reason}) but its next run could not be dispatched: ${w.redact(error instanceof Error ? error.message : String(error))}; give the work job \`actions: write\` (docs/install.md); the hourly sweep wakes it meanwhile`,
    );
    return false;
  }
  w.logger.info(
    `cfa/worker: job #${job} stopped early (${summary.stopped.reason}); dispatched its next run`,
  );
  return true;
}

/**
 * The run's clean stop: the worker's own (a cancellation's SIGINT) or the deadline, whichever
 * comes first. The deadline counts from now, the start of the wake: what the runner spent
 * before (checkout, setup) is inside the margin.
 */
export function runStop(
  w: WorkerContext,
  limits: { runMinutes: number; stopMarginMinutes: number },
): { signal: AbortSignal; stopAt: number; dispose: () => void } {
  const own = new AbortController();
  const minutes = Math.max(1, limits.runMinutes - limits.stopMarginMinutes);
  // When it fires, by the clock the engine reads (`execute.runners: auto` weighs the time left).
  const stopAt = (w.clock ?? systemClock).now().getTime() + minutes * 60_000;
  const timer =
    w.deadlineTimer ??
    ((ms: number, fire: () => void) => {
      const handle = setTimeout(fire, ms);
      handle.unref?.();
      return () => clearTimeout(handle);
    });
  const cancel = timer(minutes * 60_000, () =>
    own.abort({
      reason: `its time is nearly up (${minutes} of limits.runMinutes ${limits.runMinutes} minutes)`,
      now: false,
    }),
  );
  const signal = w.stop ? AbortSignal.any([w.stop, own.signal]) : own.signal;
  return { signal, stopAt, dispose: cancel };
}
