// Whether a task run may work: the run the lead dispatched last for an open
// task of a live job. Pure: given the job's record as its job branch holds it. A run that is
// not — its epoch older than the ledger's (the lead gave up on it and dispatched again), the
// task merged, dropped or never dispatched to a run of its own, the job withdrawn, ended or
// paused — exits at once, writing nothing: the lead's run is the only writer of everything
// but the task branch, and the task branch's lease is the ledger epoch's alone.

import { isTerminalState, type State } from "../../protocol/fsm.js";
import type { EngineState, TaskLedgerRecord } from "../../records/engine-state.js";

export type TaskRunStanding =
  { ok: true; ledger: TaskLedgerRecord; branch: string } | { ok: false; reason: string };

export function taskRunStanding(
  job: { state: State },
  engine: EngineState,
  task: string,
  epoch: number,
): TaskRunStanding {
  if (isTerminalState(job.state)) return { ok: false, reason: `the job is ${job.state}` };
  if (engine.paused !== undefined)
    return { ok: false, reason: `the job is paused (by @${engine.paused.by})` };
  const meta = engine.tasks[task];
  if (meta === undefined) return { ok: false, reason: `the job has no task ${task}` };
  if (meta.status !== "open") return { ok: false, reason: `task ${task} is ${meta.status}` };
  const ledger = engine.fanout?.tasks[task];
  if (engine.fanout?.single !== undefined || ledger === undefined)
    return { ok: false, reason: `the lead runs task ${task} in its own run` };
  if (ledger.epoch > epoch)
    return {
      ok: false,
      reason: `epoch ${epoch} is stale: the lead dispatched task ${task} again (epoch ${ledger.epoch})`,
    };
  if (ledger.epoch < epoch)
    return {
      ok: false,
      reason: `the lead never dispatched epoch ${epoch} of task ${task} (its latest is ${ledger.epoch})`,
    };
  return { ok: true, ledger, branch: meta.branch };
}
