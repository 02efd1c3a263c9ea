// Does a live job need a worker? (The scheduled sweep wakes any job whose cursor is behind,
// so a lost delivery only delays a job: docs/install.md, "The hourly sweep".) Pure: the
// sweep gathers the facts.

import type { EngineState } from "../records/engine-state.js";
import { isLiveState, type State } from "../protocol/fsm.js";
import { gatesDue, type GatePolicy } from "../records/gate-deadlines.js";

export interface JobFacts {
  state: State;
  engine: EngineState;
  issue: { state: "open" | "closed"; labels: string[] };
  label: string;
  /** The newest comment and review ids by a person (the bot's own do not move the job). */
  latestComment: number;
  latestReview: number;
  /** The job's pull request as GitHub has it now (absent: not read, or none yet). */
  pullRequest?: { state: "open" | "closed" } | null;
  /** The repository's `gates` and the time now: a gate's reminder or expiry may be due. */
  gates?: GatePolicy;
  now?: Date;
}

/** Why the job needs a wake; empty when it is terminal or rightly waiting on a person. */
export function jobNeedsWake(facts: JobFacts): string[] {
  if (!isLiveState(facts.state)) return [];
  const reasons: string[] = [];
  const { engine } = facts;
  if (facts.issue.state === "closed") reasons.push("the issue was closed");
  else if (!facts.issue.labels.includes(facts.label))
    reasons.push(`\`${facts.label}\` was removed`);
  // A person closed (or merged) the job's pull request: the wake withdraws the job (the PR's
  // delivery may have been lost, or Actions-only mode never ran for it).
  // In Actions-only mode a pull request with a merge conflict starts no `pull_request` or
  // `pull_request_review` run at all: both run on refs/pull/<N>/merge, which a conflict
  // leaves unmade, and "Workflows will not run on `pull_request` activity if the pull
  // request has a merge conflict" (docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows).
  // The sweep is what notices such a close, and such a review (the cursor below).
  if (engine.pr !== null && facts.pullRequest?.state === "closed") {
    reasons.push(`its pull request #${engine.pr} was closed`);
  }
  if (facts.latestComment > engine.cursor.comment) reasons.push("a comment it has not read");
  if (facts.latestReview > engine.cursor.review) reasons.push("a review it has not read");
  if (engine.outbox.length > 0) reasons.push("comments decided but not posted");
  // A paused job is left alone — no retry of the API, no run for its idle agents —
  // unless people did something above (a /resume, a /withdraw, a closed issue).
  if (engine.paused !== undefined) return reasons;
  // A gate nobody answered is due its one reminder, or has expired.
  if (facts.gates !== undefined && facts.now !== undefined) {
    for (const due of gatesDue(engine, facts.state, facts.gates, facts.now)) {
      reasons.push(
        due.kind === "remind"
          ? `gate ${due.id} waited ${due.waitedHours} h: its reminder is due`
          : `gate ${due.id} waited ${due.waitedDays} days: it expired`,
      );
    }
  }
  // A wake that met an API outage ended with the job live (not the job's fault); try again.
  if (engine.apiWait !== undefined)
    reasons.push(
      engine.apiWait.reason === "credentials"
        ? `waiting for working model credentials since ${engine.apiWait.since}`
        : `waiting for the Anthropic API since ${engine.apiWait.since}`,
    );
  // A wake met a full disk and paused the job; a new runner has room.
  if (engine.diskFull !== undefined)
    reasons.push(`paused since ${engine.diskFull.since}: the runner's disk was full`);
  if (!waitingOnPerson(facts.state, engine)) {
    // A live job that asks nobody anything should be running; no run is (the sweep skips
    // jobs with one), so the last one stopped early (a crash, a cancelled run).
    reasons.push("not waiting on anyone, and no run is working on it");
  }
  return reasons;
}

function waitingOnPerson(state: State, engine: EngineState): boolean {
  // A failed setup waits for the person's `/retry` (its comment wakes the job).
  const setup = engine.setup?.failed;
  if (setup !== undefined && setup.retry !== true) return true;
  return Object.values(engine.escalations).some(
    (m) => m.state === state && m.postedSeq !== undefined && m.answeredBy === undefined,
  );
}
