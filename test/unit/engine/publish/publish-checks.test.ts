// The job's checks as published (src/engine/publish/checks.ts `publishChecks`): one per phase
// reached, on the job branch's head, the current one saying whose move it is — from the
// records, the soup and the repository's HEAD, no job opened.

import { describe, expect, it } from "vitest";
import { applyChange } from "../../../../src/engine/job/session.js";
import { publishChecks } from "../../../../src/engine/publish/checks.js";
import type { JobRepo } from "../../../../src/engine/tree/job-repo.js";
import { sessionParts } from "../../../support/engine/session-parts.js";
import { givenJob } from "../../../support/protocol/given.js";

const HEAD = "d".repeat(40);
const repo = { head: async () => HEAD } as unknown as JobRepo;

describe("publishChecks", () => {
  it("sets each phase's check on HEAD: passed ones succeed, the current one says the agents work", async () => {
    const s = { ...sessionParts({ job: givenJob("PLAN", { job: 1 }) }), repo };

    await publishChecks(s);

    expect(s.seen.forge.checks.map((c) => [c.name, c.sha, c.conclusion ?? c.status])).toEqual([
      ["cfa/intent", HEAD, "success"],
      ["cfa/plan", HEAD, "in_progress"],
    ]);
    expect(s.seen.forge.checks[1]!.summary).toMatch(/^Next move: the agents: work in progress\./);
  });

  it("a paused job's current check names who paused it, and its next move is their resume", async () => {
    const s = { ...sessionParts({ job: givenJob("PLAN", { job: 1 }) }), repo };
    applyChange(s, {
      type: "job-paused",
      by: "bob",
      since: "2026-11-22T10:00:00Z",
      reason: "lunch",
    });

    await publishChecks(s);

    expect(s.seen.forge.checks[1]).toMatchObject({
      title: "cfa/plan: PAUSED by @bob",
      status: "in_progress",
    });
    expect(s.seen.forge.checks[1]!.summary).toContain("a person to resume it (`/resume`)");
  });
});
