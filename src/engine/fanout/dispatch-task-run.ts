// The lead's side of a task in its own run, at dispatch: once the task's
// branch and workspace exist (provision-task.ts), `chooseRunner` says where it runs; for
// `own-run` the branch is published (leased, as every task push) and the task's ledger recorded
// at epoch 1, its run dispatched by the wake once that state is pushed (dispatch-saved.ts). A
// repository that cannot run it (no `task` job: 404/422; no permission: 403; no run id) runs
// the job's tasks in the lead's run from then on, said once in the status comment
// (`fanout.single`).
// Sub-tasks stay in their parent's run; only the project lead's dispatches fan out.

import { chooseRunner, type RunnerChoiceInput } from "./choose-runner.js";
import { commandShare, expectedTaskMinutes, leadMinutesLeft } from "./runner-measures.js";
import { runtimeOf } from "../turn/wake-runtime.js";
import { taskOfThread } from "../job/instances.js";
import type { Session, JobRecords } from "../job/session.js";
import type { TaskLedgerRecord } from "../../records/engine-state.js";
import { saveForDispatch } from "./dispatch-saved.js";

/**
 * What one model call may cost at most, in USD: the slack the fold allows a run past its
 * allowance (a call in flight when it was reached).
 */
const CALL_USD = 1;

export function ownRunLedger(s: JobRecords, epoch: number): TaskLedgerRecord {
  return {
    epoch,
    folded: 0,
    charged: {},
    allowanceUsd: Math.max(0, s.config.caps.costUsd - s.job.costUsd),
    callUsd: CALL_USD,
    runId: null,
    deaths: 0,
    foldedAtDispatch: 0,
    refused: [],
  };
}

/** Called for a task just provisioned; "own-run" when the task now runs in its own run. */
export async function dispatchTaskRun(
  s: Session,
  task: { id: string; parent: string | undefined },
): Promise<"lead" | "own-run"> {
  const runs = s.deps.taskRuns;
  if (runs === undefined || task.parent !== undefined) return "lead";
  if (s.job.state !== "EXECUTE" || s.engine.fanout?.single !== undefined) return "lead";
  const open = Object.values(s.engine.tasks).filter((t) => t.status === "open").length;
  // `auto` decides on what the job measured (runner-measures.ts), never on a model's words.
  const input: RunnerChoiceInput = {
    mode: s.config.execute.runners,
    concurrent: Math.max(1, open),
    commandShare: commandShare(s.engine),
    expectedMinutes: expectedTaskMinutes(s.engine),
    leadMinutesLeft: leadMinutesLeft(runtimeOf(s).stopAtMs, s.deps.clock.now().getTime()),
  };
  const choice = chooseRunner(input);
  if (choice === "lead") return "lead";
  const meta = s.engine.tasks[task.id];
  if (meta === undefined) return "lead";
  // The task run fetches its branch: it must exist on the forge before the run starts.
  try {
    await s.deps.forge.pushBranch(meta.branch, { sha: meta.base, expectedOld: null });
  } catch (error) {
    // Already there (a wake that died after publishing it): the task runs here, as before.
    s.deps.logger.warn(
      `cfa #${s.n}: task ${task.id} runs in the lead's run: its branch could not be published (${(error as Error).message})`,
    );
    return "lead";
  }
  // Saved first, dispatched by the wake once the state naming epoch 1 is pushed
  // (dispatch-saved.ts): the run reads that state before it does anything.
  await saveForDispatch(
    s,
    task.id,
    ownRunLedger(s, 1),
    (run) => `task ${task.id} runs in ${run}${autoReason(input)}`,
    true,
  );
  return "own-run";
}

/**
 * Why `auto` chose a run of its own, from the measures it weighed: " (auto: …)", or "" for
 * another mode. The lead run's time left when that decided it, else the contention.
 */
export function autoReason(input: RunnerChoiceInput): string {
  if (input.mode !== "auto") return "";
  const expected = `${round(input.expectedMinutes)} min expected`;
  if (input.expectedMinutes > input.leadMinutesLeft) {
    return ` (auto: ${expected}, ${round(input.leadMinutesLeft)} min left in this run)`;
  }
  const share = Math.round(input.commandShare * 100);
  return ` (auto: ${share}% of task turns in commands, ${expected}, ${input.concurrent} tasks at once)`;
}

const round = (minutes: number) => Math.round(minutes * 10) / 10;

/** The task an instance's turns belong to when they run elsewhere, or null (the lead's run). */
export function runsElsewhere(s: JobRecords, thread: string): boolean {
  const fanout = s.engine.fanout;
  if (fanout === undefined) return false;
  let id = taskOfThread(thread);
  // A sub-task runs where its root task runs.
  for (let depth = 0; id !== null && depth < 64; depth++) {
    const meta = s.engine.tasks[id];
    if (meta === undefined) return false;
    if (meta.parent === undefined) {
      const ledger = fanout.tasks[id];
      if (ledger === undefined || meta.status !== "open") return false;
      // After the fall-back to `single`, only a task whose takeover found its branch moving
      // (its cancelled run still pushing) is still in its run, until the next wake takes it.
      return fanout.single === undefined || ledger.runId !== null;
    }
    id = meta.parent;
  }
  return false;
}

/** The status comment's line when the job's tasks run in the lead's run after all. */
export function singleNotice(s: JobRecords): string | null {
  const reason = s.engine.fanout?.single;
  return reason === undefined ? null : `tasks run in this run: ${reason}`;
}
