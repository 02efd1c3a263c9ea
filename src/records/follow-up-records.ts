// A follow-up's first records (docs/protocol.md#jobs-and-states): a job of its own, whose
// parent is the job that ended (DONE or WITHDRAWN) on the same branch. Pure: what the parent's
// records and the request say, nothing read. The parent's records are only read, never
// changed; what the follow-up carries on from them is what keeps the two apart on the issue
// and the branch: the structured comments' seq and the escalation ids go on counting (no
// `q1` asked twice on one issue, no hidden block posted twice), lead threads count their
// entries on (`state:intent:2`), and the task ids the earlier rounds used are refused.

import { entriesSoFar, newJobRecord } from "../protocol/job-record.js";
import { toolSetOf } from "./tool-sets.js";
import { withEngineState, initialEngineState, type EngineState } from "./engine-state.js";
import type { FollowUpRequest } from "./follow-up-request.js";
import type { JobRecords } from "./record-changes.js";

export interface FollowUpInit {
  /** The parent's round and the folder of its records. */
  parent: { round: number; dir: string; commit: string };
  /** The branch's head the follow-up starts from. */
  base: string;
  request: FollowUpRequest;
  /** What of people's comments and reviews the follow-up starts after (its request's own). */
  cursor: EngineState["cursor"];
  title: string;
  at: string;
}

export function followUpRecords(parent: JobRecords, init: FollowUpInit): JobRecords {
  const state = parent.job.state;
  if (state !== "DONE" && state !== "WITHDRAWN") {
    throw new Error(`cfa/records: a follow-up starts after DONE or WITHDRAWN, not ${state}`);
  }
  const before = parent.engine;
  const engine: EngineState = {
    // A follow-up works with the tools its job started with: a recording replays its rounds
    // with the one tool set it names (records/tool-sets.ts).
    ...initialEngineState(init.request.by, toolSetOf(before.toolSet)),
    cursor: { ...init.cursor },
    seq: before.seq,
    statusComment: before.statusComment,
    pr: before.pr,
    nextEscalation: before.nextEscalation,
    ...(before.calls === undefined ? {} : { calls: before.calls }),
    ...(before.prNotDraft === undefined ? {} : { prNotDraft: before.prNotDraft }),
    followUp: {
      round: init.parent.round + 1,
      parent: { round: init.parent.round, state, commit: init.parent.commit, dir: init.parent.dir },
      base: init.base,
      request: init.request,
      priorTasks: [
        ...new Set([...(before.followUp?.priorTasks ?? []), ...Object.keys(before.tasks)]),
      ].sort(),
    },
  };
  const job = newJobRecord({
    job: parent.job.job,
    title: init.title,
    at: init.at,
    priorEntries: entriesSoFar(parent.job),
  });
  return { job: withEngineState(job, engine), engine };
}
