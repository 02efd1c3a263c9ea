// A follow-up begins (docs/protocol.md#jobs-and-states): the records of a new job, round k+1
// of the issue, beside the ended one's on the same branch, committed and pushed on top of the
// branch as it is now — a commit a person pushed after the job ended included, so that is
// what the follow-up's work starts from. The ended job's records are read, never written.

import { LOG_START, Soup, encodeBatch } from "../../protocol/bus/index.js";
import { serializeJobRecord } from "../../protocol/job-record.js";
import { followUpRecords } from "../../records/follow-up-records.js";
import type { FollowUpRequest } from "../../records/follow-up-request.js";
import type { EngineState } from "../../records/engine-state.js";
import { jobPaths } from "../../records/job-paths.js";
import { appendText, writeText } from "../tree/files.js";
import { commitAndPush, now, ORCHESTRATOR, progress, type Session } from "./session.js";

/** Starts round `s.paths.round + 1` after `s`'s ended job; returns the new round. */
export async function startFollowUpRound(
  s: Session,
  asked: { request: FollowUpRequest; cursor: EngineState["cursor"] },
): Promise<number> {
  const round = s.paths.round + 1;
  const paths = jobPaths(s.n, round);
  const base = await s.repo.head();
  // The parent's own last commit of its records: what "unchanged" is measured against.
  const touched = await s.repo.git.raw(["log", "-1", "--format=%H", base, "--", s.paths.dir]);
  const next = followUpRecords(
    { job: s.job, engine: s.engine },
    {
      parent: { round: s.paths.round, dir: s.paths.dir, commit: touched.trim() || base },
      base,
      request: asked.request,
      cursor: asked.cursor,
      title: s.issue.title,
      at: now(s),
    },
  );
  const events = new Soup({ fanOutCap: s.config.fanOut }).root(ORCHESTRATOR).events;
  await writeText(s.jobWs.root, paths.state, serializeJobRecord(next.job));
  await appendText(s.jobWs.root, paths.bus, encodeBatch(events, { ...LOG_START, at: now(s) }));
  const what =
    asked.request.kind === "review"
      ? `review ${asked.request.id} by @${asked.request.by}`
      : `/cfa by @${asked.request.by}`;
  await commitAndPush(s, `cfa #${s.n}: follow-up ${round} starts (${what})`, [paths.dir]);
  progress(s, "FOLLOW-UP", "START", `round ${round} after ${s.job.state} (${what})`);
  return round;
}
