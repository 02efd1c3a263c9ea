// transition(): the one way a job record changes state. Pure: returns a new record.

import {
  ACTION_TO_STATE,
  isBacktrack,
  isEdge,
  isLiveState,
  validActions,
  type Action,
} from "./fsm.js";
import type { JobRecord } from "./job-record.js";
import { InvalidTransitionError } from "./errors.js";

export interface TransitionMeta {
  /** ISO time, passed in: the protocol reads no clock. */
  at: string;
  /** Who emitted the action: a skill's agent, or "orchestrator". */
  by: string;
  reason: string;
}

export function transition(job: JobRecord, action: Action, meta: TransitionMeta): JobRecord {
  if (!isEdge(job.state, action)) {
    throw new InvalidTransitionError(job.state, action, validActions(job.state));
  }
  const to = ACTION_TO_STATE[action];
  const backtrack = isBacktrack(job.state, to);
  const entries =
    job.history.filter((entry) => entry.to === to).length +
    (isLiveState(to) ? (job.priorEntries?.[to] ?? 0) : 0);
  return {
    ...job,
    state: to,
    // The record's first entry into INTENT is its creation, not a transition.
    entry: entries + 1 + (to === "INTENT" ? 1 : 0),
    history: [
      ...job.history,
      { from: job.state, action, to, at: meta.at, by: meta.by, reason: meta.reason },
    ],
    backtracks: job.backtracks + (backtrack ? 1 : 0),
    failures: 0,
    nudges: 0,
  };
}
