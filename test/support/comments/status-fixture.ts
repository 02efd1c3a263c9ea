// A job's status comment rendered from an engine state the test builds (tasks with their
// verdicts and evidence, a waiting setup): what the person would read, without a job run.

import { newJobRecord } from "../../../src/protocol/job-record.js";
import { renderStatusComment } from "../../../src/comments/status-comment.js";
import {
  withEngineState,
  type BlockedEntry,
  type EngineState,
  type TaskMeta,
} from "../../../src/records/engine-state.js";

export const STATUS_AT = "2026-11-22T10:00:00.000Z";

/** A merged task x of job 7 that passed, unless `overrides` say otherwise. */
export function taskMeta(overrides: Partial<TaskMeta>): TaskMeta {
  return {
    thread: "dispatch:x",
    branch: "cfa/7-x",
    dir: "task-x",
    base: "b",
    brief: "x",
    status: "merged",
    verifyFailures: 0,
    lastVerdict: "pass",
    ...overrides,
  };
}

/**
 * A request the egress proxy refused: `curl https://evil.example` by worker@dispatch:api to
 * evil.example:443 (https), not allowed, once, at STATUS_AT — unless `overrides` say otherwise.
 */
export function blockedRequest(overrides: Partial<BlockedEntry>): BlockedEntry {
  return {
    host: "evil.example",
    port: 443,
    protocol: "https",
    reason: "not-allowed",
    command: "curl https://evil.example",
    by: "worker@dispatch:api",
    count: 1,
    first: STATUS_AT,
    last: STATUS_AT,
    ...overrides,
  };
}

/** Job 7's status comment over `engine`, its agents at work. */
export function renderStatus(engine: EngineState, setupWaiting = false): string {
  const job = withEngineState(newJobRecord({ job: 7, title: "t", at: STATUS_AT }), engine);
  return renderStatusComment({
    job,
    engine,
    waitingOn: "the agents: work in progress.",
    links: { artifacts: [] },
    setupWaiting,
  });
}
