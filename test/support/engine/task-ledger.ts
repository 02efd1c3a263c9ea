// A task's ledger as the lead's run records it when it dispatches the task to a run of its
// own (issue 15 point 6): nothing folded or charged yet, run 77, a $2 allowance.

import type { TaskLedgerRecord } from "../../../src/records/engine-state.js";

export function dispatchedLedger(epoch: number): TaskLedgerRecord {
  return {
    epoch,
    folded: 0,
    charged: {},
    allowanceUsd: 2,
    callUsd: 0.1,
    runId: "77",
    deaths: 0,
    refused: [],
  };
}
