// Bounded crash-loss (seed 000 §11, §12): a process that dies between any two steps of a
// turn loses at most that turn; the next wake — new deps over the same repository and work
// dir — resumes, and the job ends where it would have, with nothing done twice. A whole job
// to DONE, died at every call it makes through its ports: this file takes share 2 of 2 of
// those points (test/support/engine/crash-scenarios.ts), done-shard-1.test.ts the other.

import { afterAll, describe, expect, it } from "vitest";
import {
  cleanupScenario,
  recordDone,
  resumeFrom,
  shardOf,
} from "../../support/engine/crash-scenarios.js";
import { git } from "../../support/engine/local-job.js";

const done = await recordDone();
afterAll(() => cleanupScenario(done));

describe("a job interrupted at any call ends as it would have (DONE), share 2 of 2", () => {
  it("the reference job ran to DONE and left crash points", () => {
    if (done.failure) throw done.failure;
    expect(done.reference?.state).toBe("DONE");
    expect(done.reference?.pr).toEqual({ draft: false, state: "open" });
    expect(shardOf(done.points, 1, 2).length).toBeGreaterThan(0);
  });

  for (const point of shardOf(done.points, 1, 2)) {
    it(`dies ${point.label}`, async () => {
      const job = await resumeFrom(done, point);
      expect(git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1")).toContain("hello.txt");
    });
  }
});
