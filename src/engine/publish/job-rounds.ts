// A follow-up's view of the rounds before it (docs/protocol.md#jobs-and-states), from their
// state records as the branch's head holds them: each ended, so each is read, never written.

import { parseJobRecord, type JobRecord } from "../../protocol/job-record.js";
import { engineState, type EngineState } from "../../records/engine-state.js";
import { jobPaths } from "../../records/job-paths.js";
import type { RoundFact } from "../../comments/job-rounds-text.js";
import type { JobRecords, JobRepository } from "../job/session.js";

/** Every round of the job, this one last; null for a job no follow-up began from. */
export async function jobRounds(s: JobRecords & JobRepository): Promise<RoundFact[] | null> {
  if (s.engine.followUp === undefined) return null;
  const rounds: RoundFact[] = [];
  for (let round = 1; round < s.paths.round; round++) {
    const path = jobPaths(s.n, round).state;
    const bytes = await s.repo.fileAt("HEAD", path);
    if (bytes === null) continue; // dropped by `auditTrail: drop`: nothing to show of it
    let job: JobRecord;
    let engine: EngineState;
    try {
      job = parseJobRecord(bytes.toString("utf8"), path);
      engine = engineState(job);
    } catch {
      continue;
    }
    rounds.push(factOf(round, job, engine));
  }
  rounds.push(factOf(s.paths.round, s.job, s.engine));
  return rounds;
}

function factOf(round: number, job: JobRecord, engine: EngineState): RoundFact {
  return {
    round,
    state: job.state,
    turns: job.turns,
    costUsd: job.costUsd,
    request: engine.followUp?.request ?? null,
    requester: engine.requester,
  };
}
