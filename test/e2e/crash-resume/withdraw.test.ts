// Bounded crash-loss (docs/protocol.md#invariants) of a withdrawal: the wake in which a `/withdraw`
// drops two live tasks, died at every call it makes through its ports
// (test/support/engine/crash-scenarios.ts); a new process ends the job WITHDRAWN as the reference
// did, the tasks' work dropped unmerged, nothing done twice.

import { afterAll, describe, expect, it } from "vitest";
import {
  cleanupScenario,
  recordWithdrawn,
  resumeFrom,
  TASKS,
} from "../../support/engine/crash-scenarios.js";
import { git } from "../../support/engine/local-job.js";

const withdrawn = await recordWithdrawn();
afterAll(() => cleanupScenario(withdrawn));

describe("a withdraw interrupted at any call ends as it would have (WITHDRAWN)", () => {
  it("the reference wake withdrew the job and left crash points", () => {
    if (withdrawn.failure) throw withdrawn.failure;
    expect(withdrawn.reference?.state).toBe("WITHDRAWN");
    expect(withdrawn.reference?.pr).toEqual({ draft: true, state: "closed" });
    expect(withdrawn.points.length).toBeGreaterThan(0);
  });

  for (const point of withdrawn.points) {
    it(`dies ${point.label}`, async () => {
      const job = await resumeFrom(withdrawn, point);
      const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
      for (const id of TASKS) expect(files).not.toContain(`${id}.txt`);
    });
  }
});
