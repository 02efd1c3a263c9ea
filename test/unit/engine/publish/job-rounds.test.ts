// A follow-up's view of the rounds before it (src/engine/publish/job-rounds.ts,
// docs/protocol.md#jobs-and-states): each earlier round as its state record at HEAD says, this
// one last from the records in memory; a round whose records were dropped is left out.

import { describe, expect, it } from "vitest";
import { jobRounds } from "../../../../src/engine/publish/job-rounds.js";
import type { JobRepo } from "../../../../src/engine/tree/job-repo.js";
import { serializeJobRecord } from "../../../../src/protocol/job-record.js";
import { initialEngineState, withEngineState } from "../../../../src/records/engine-state.js";
import { followUpRecords } from "../../../../src/records/follow-up-records.js";
import { jobPaths } from "../../../../src/records/job-paths.js";
import { sessionParts } from "../../../support/engine/session-parts.js";
import { givenJob } from "../../../support/protocol/given.js";

const request = {
  kind: "comment" as const,
  id: 120,
  by: "bob",
  at: "2026-11-22T10:00:00Z",
  on: "issue" as const,
  text: "make it blue",
};

/** Round 2's parts, and a repository whose HEAD holds round 1's state record when `kept`. */
function secondRound(kept: boolean) {
  const parent = { job: givenJob("DONE", { job: 1 }), engine: initialEngineState("ana") };
  const { job, engine } = followUpRecords(parent, {
    parent: { round: 1, dir: jobPaths(1).dir, commit: "c".repeat(40) },
    base: "b".repeat(40),
    request,
    cursor: { comment: 120, review: 0 },
    title: "Greet",
    at: "2026-11-22T10:00:00Z",
  });
  const held = new Map([
    [
      jobPaths(1, 1).state,
      Buffer.from(serializeJobRecord(withEngineState(parent.job, parent.engine))),
    ],
  ]);
  const repo = {
    fileAt: async (commit: string, path: string) =>
      commit === "HEAD" && kept ? (held.get(path) ?? null) : null,
  } as unknown as JobRepo;
  return { ...sessionParts({ job, engine }), paths: jobPaths(1, 2), repo };
}

describe("jobRounds", () => {
  it("every round, the ended one from its record at HEAD and this one last, with who asked for it", async () => {
    const rounds = await jobRounds(secondRound(true));

    expect(rounds).toEqual([
      { round: 1, state: "DONE", turns: 11, costUsd: 1.25, request: null, requester: "ana" },
      { round: 2, state: "INTENT", turns: 0, costUsd: 0, request, requester: "bob" },
    ]);
  });

  it("a round whose records `auditTrail: drop` took out of the tree is left out", async () => {
    const rounds = await jobRounds(secondRound(false));
    expect(rounds?.map((r) => r.round)).toEqual([2]);
  });

  it("a job no follow-up began from has no rounds to show", async () => {
    const repo = { fileAt: async () => null } as unknown as JobRepo;
    expect(await jobRounds({ ...sessionParts(), repo })).toBeNull();
  });
});
