// The job's records → the facts its picture is drawn from (job-diagram.ts).

import type { JobRecord } from "../protocol/job-record.js";
import type { EngineState, TaskMeta } from "../records/engine-state.js";
import { jobPicture, type DiagramTask } from "./job-diagram.js";

/** The task that dispatched this one, once tasks dispatch sub-tasks (null: the lead did). */
function parentOf(meta: TaskMeta): string | null {
  const parent = (meta as { parent?: unknown }).parent;
  return typeof parent === "string" && parent !== "" ? parent : null;
}

export function pictureOfJob(job: JobRecord, engine: EngineState): string {
  const tasks: DiagramTask[] = Object.entries(engine.tasks).map(([id, meta]) => ({
    id,
    parent: parentOf(meta),
    status: meta.status,
    verdict: meta.lastVerdict,
  }));
  return jobPicture({
    job: job.job,
    state: job.state,
    history: job.history,
    tasks,
    ...(engine.followUp === undefined ? {} : { round: engine.followUp.round }),
  });
}
