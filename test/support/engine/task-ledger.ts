// A task's ledger (a task in a workflow run of its own) as the lead's run records it: by
// default the first epoch, run 901, a $1 allowance at $0.10 a call, nothing folded or charged
// yet.

import type { TaskLedgerRecord } from "../../../src/records/engine-state.js";

export function taskLedger(over: Partial<TaskLedgerRecord> = {}): TaskLedgerRecord {
  return {
    epoch: 1,
    folded: 0,
    charged: {},
    allowanceUsd: 1,
    callUsd: 0.1,
    runId: "901",
    deaths: 0,
    refused: [],
    ...over,
  };
}

/** The ledger the lead's run records when it dispatches the task to run 77, with $2. */
export function dispatchedLedger(epoch: number): TaskLedgerRecord {
  return taskLedger({ epoch, allowanceUsd: 2, runId: "77" });
}
