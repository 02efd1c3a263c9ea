// The lead's fold of one task branch at a wake: what readTaskTurnRecords
// found on the branch, checked by foldTaskRecords against the task's ledger as the job's state
// holds it (records/engine-state.ts, `fanout.tasks`). Pure. What comes back is the ledger to
// keep, the turns whose sends reach the bus (in order), the USD to charge now, and the refusals
// not said before — a refused record by its key, a file that is no record by its path — so a
// refusal is said once across wakes however often the lead reads the same branch again.

import type { TaskLedgerRecord } from "../../records/engine-state.js";
import type { TaskTurnRecord } from "../../records/task-turn-record.js";
import { foldTaskRecords, type FoldContext } from "./fold-task-records.js";
import type { TaskTurnFiles } from "./task-turn-files.js";

export interface BranchFold {
  ledger: TaskLedgerRecord;
  folded: TaskTurnRecord[];
  chargedUsd: number;
  /** Refusals to say now, each once: `what` is a record's key or a file's path. */
  say: { what: string; why: string }[];
  /** The turn the fold waits for after a gap (null: none). */
  waitingFor: number | null;
  /** The last folded turn said the task is done. */
  done: boolean;
  /** Ended turns' timings to add to what the job measured, each once. */
  timed: { turnMs: number; commandMs: number }[];
}

const fileKey = (path: string) => `file:${path}`;

export function foldTaskBranch(
  prior: TaskLedgerRecord,
  files: TaskTurnFiles,
  ctx: FoldContext,
): BranchFold {
  const before = new Set(prior.refused);
  const r = foldTaskRecords(
    {
      epoch: prior.epoch,
      folded: prior.folded,
      charged: prior.charged,
      allowanceUsd: prior.allowanceUsd,
      callUsd: prior.callUsd,
      ...(prior.timed === undefined ? {} : { timed: prior.timed }),
      ...(prior.subtasks === undefined ? {} : { subtasks: prior.subtasks }),
    },
    files.records,
    ctx,
    before,
  );
  const say: BranchFold["say"] = r.refused.map((x) => ({ what: x.key, why: x.why }));
  const refused = [...prior.refused, ...r.refused.map((x) => x.key)];
  for (const f of files.refused) {
    const key = fileKey(f.path);
    if (before.has(key) || refused.includes(key)) continue;
    say.push({ what: f.path, why: f.why });
    refused.push(key);
  }
  return {
    ledger: { ...prior, ...r.ledger, refused },
    folded: r.folded,
    chargedUsd: r.chargedUsd,
    say,
    waitingFor: r.waitingFor,
    done: r.folded.at(-1)?.done === true,
    timed: r.timed.map(({ turnMs, commandMs }) => ({ turnMs, commandMs })),
  };
}
