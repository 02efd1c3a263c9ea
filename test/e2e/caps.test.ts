// Caps (docs/protocol.md#recorded-decisions: a cap fails the run): breaching a cap set in
// `.github/cfa.yml` fails the job, naming the cap; a capped job does not end cleanly.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approveGates, openJob } from "../support/engine/person.js";
import { commentsOfKind, foldedBus, state } from "../support/engine/inspect.js";
import { recording } from "../support/engine/script.js";
import { INTENT_STEPS, gate, writeArtifact } from "../support/engine/recordings.js";

describe("caps", () => {
  const newJob = useLocalJobs();

  it("a turns cap of 2 fails the job at the third turn, naming the cap", async () => {
    const job = await newJob({
      config: "caps:\n  turns: 2\n",
      recording: recording({
        "intent-lead@state:intent:1": INTENT_STEPS(),
        "project-lead@state:plan:1": [
          writeArtifact("PLAN.md", "# Plan\n\nOne task.\n"),
          gate("PLAN.md"),
        ],
      }),
    });
    await openJob(job);
    const summary = await approveGates(job, 1, wake);
    expect(summary.state).toBe("FAILURE");

    const record = state(job);
    expect(record.turns).toBe(3);
    expect(record.history.at(-1)).toEqual(
      expect.objectContaining({
        from: "PLAN",
        action: "FAILURE",
        by: "orchestrator",
        reason: "cap breached: turns 3 > 2",
      }),
    );
    // The gate the third turn asked for is cancelled with the job, never put to the person.
    expect((await commentsOfKind(job, "gate")).map((g) => g.block.id)).toEqual(["q1"]);
    expect(foldedBus(job).folded.soup.pendingEscalations()).toEqual([]);
    const [notice] = await commentsOfKind(job, "notice");
    expect(notice!.body).toContain("**Failed:** cap breached: turns 3 > 2");
  });
});
