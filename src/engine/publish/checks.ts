// The job's check runs (so branch protection can require a finished job): GitHub shows a pull
// request the checks of its head commit only, so they are published once per wake on the head as it
// is after the wake's last commit — a check set mid-wake lands on a commit the next record commit
// buries. One check per phase: passed phases succeed, the current one is in progress (or waits on a
// review), and a terminal completes the last.

import { LIVE_STATES, isLiveState, type LiveState } from "../../protocol/fsm.js";
import type { JobRecord } from "../../protocol/job-record.js";
import type { CheckUpdate } from "../../ports/forge.js";
import { PHASES } from "../../skills/phases.js";
import { pictureOfJob } from "../../comments/picture-of-job.js";
import type { Conversation, JobRecords, JobRepository, Reporter } from "../job/session.js";
import type { EngineState } from "../../records/engine-state.js";
import { waitingOn } from "./status.js";
import { jobEvidence } from "../../comments/job-evidence.js";

/**
 * The checks for `job` on `head`; `next` says whose move it is (status.ts `waitingOn`).
 * `picture`, when given, ends every summary (the job's Mermaid diagrams).
 */
export function jobChecks(
  job: JobRecord,
  next: string,
  head: string,
  picture?: string,
  /** The current phase's check says PAUSED in its title; `next` says by whom and why. */
  paused?: EngineState["paused"],
): CheckUpdate[] {
  const withPicture = (text: string) => (picture === undefined ? text : `${text}\n\n${picture}`);
  const state = job.state;
  const last = job.history.at(-1);
  // The phase the job is in, or the one it ended in.
  const current: LiveState = isLiveState(state)
    ? state
    : state === "DONE"
      ? "EXECUTE"
      : isLiveState(last?.from)
        ? last.from
        : "INTENT";
  const upTo = LIVE_STATES.indexOf(current);
  return LIVE_STATES.slice(0, upTo + 1).map((phase): CheckUpdate => {
    const name = PHASES[phase].check;
    if (phase !== current || state === "DONE") {
      return {
        name,
        sha: head,
        status: "completed",
        conclusion: "success",
        summary: withPicture("Approved."),
      };
    }
    if (state === "WITHDRAWN" || state === "FAILURE") {
      return {
        name,
        sha: head,
        status: "completed",
        conclusion: state === "WITHDRAWN" ? "cancelled" : "failure",
        summary: withPicture(last?.reason ?? state),
      };
    }
    return {
      name,
      sha: head,
      status: "in_progress",
      ...(paused !== undefined ? { title: `${name}: PAUSED by @${paused.by}` } : {}),
      summary: withPicture(`Next move: ${next}`),
    };
  });
}

export async function publishChecks(
  s: JobRecords & Reporter & Conversation & JobRepository,
): Promise<void> {
  const head = await s.repo.head();
  // The check shows what the verdicts rest on, setup, and the blocked requests.
  const picture = [jobEvidence(s.engine), pictureOfJob(s.job, s.engine)]
    .filter((part) => part !== "")
    .join("\n\n");
  for (const check of jobChecks(s.job, waitingOn(s), head, picture, s.engine.paused)) {
    await s.deps.forge.setCheck(check);
  }
}
