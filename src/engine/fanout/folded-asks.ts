// A question a task run's worker asked, folded by the lead: the lead's run opens its escalation as
// it does for a turn that asked in its own run (apply-turn.ts) — the job's next escalation id, its
// record with the ask_question call the answer resolves — so the proxy answers it, or the person,
// and the answer is the worker's next mail (docs/protocol.md#escalation).

import { isLiveState } from "../../protocol/fsm.js";
import { oneLine } from "../../comments/one-line.js";
import { nextEscalationId } from "../../records/record-changes.js";
import { applyChange, progress, type JobRecords, type Reporter } from "../job/session.js";
import type { AskIds, TaskRunFold } from "./fold-task-runs.js";

/** The ids questions take while the fold runs: the job's next ones, in folding order. */
export function foldedAskIds(s: JobRecords): AskIds {
  let next = s.engine.nextEscalation;
  const state = isLiveState(s.job.state) ? s.job.state : "EXECUTE";
  return {
    peek: () => `q${next}`,
    take: () => {
      next += 1;
    },
    policy: s.config.escalation[state],
  };
}

/** Opens each folded question's escalation under the id the fold gave it. */
export function openFoldedAsks(s: JobRecords & Reporter, asked: TaskRunFold["asked"]): void {
  const state = isLiveState(s.job.state) ? s.job.state : "EXECUTE";
  for (const q of asked) {
    // The fold gave ids in this order from the same counter: a mismatch is a bug, not input.
    if (nextEscalationId(s.engine) !== q.id)
      throw new Error(
        `cfa/engine: folded question ${q.id} would open as ${nextEscalationId(s.engine)}`,
      );
    applyChange(s, {
      type: "escalation-opened",
      meta: {
        caller: q.caller,
        kind: "question",
        state,
        text: q.text,
        ...(q.toolUseId !== undefined ? { toolUseId: q.toolUseId } : {}),
      },
    });
    progress(s, q.caller, "ASK", `${q.id}: ${oneLine(q.text, 200)}`);
  }
}
