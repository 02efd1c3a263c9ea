// A malformed outcome record is a contract violation (docs/protocol.md#skill-contract), a
// state-level failure that spends the retry budget; the failure after the last retry ends the job
// in FAILURE (termination, docs/protocol.md#invariants), naming the budget.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { openJob } from "../support/engine/person.js";
import { commentsOfKind, state, transcript, userTexts } from "../support/engine/inspect.js";
import { expecting, recording } from "../support/engine/script.js";
import { finish, writeArtifact } from "../support/engine/recordings.js";

const LEAD = "intent-lead@state:intent:1";

describe("outcome violations", () => {
  const newJob = useLocalJobs();

  it("APPROVED_INTENT without an approved gate is refused and retried; the 4th violation (budget 3) is FAILURE naming the budget", async () => {
    const refused = "Your outcome record was refused: APPROVED_INTENT needs an approved gate";
    const job = await newJob({
      recording: recording({
        [LEAD]: [
          writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
          finish("APPROVED_INTENT", "looks fine to me"),
          expecting(finish("APPROVED_INTENT", "still fine"), refused),
          expecting(finish("APPROVED_INTENT", "really fine"), refused),
          expecting(finish("APPROVED_INTENT", "fine!"), refused),
        ],
      }),
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("FAILURE");

    const record = state(job);
    expect(record.history).toEqual([
      expect.objectContaining({
        from: "INTENT",
        action: "FAILURE",
        to: "FAILURE",
        by: "orchestrator",
      }),
    ]);
    const reason = record.history[0]!.reason;
    expect(reason).toMatch(/^retry budget spent in INTENT \(4 failures, budget 3\): /);
    expect(reason).toContain("APPROVED_INTENT needs an approved gate");
    expect(summary.waitingOn).toContain("retry budget spent in INTENT");

    // Each of the three retries told the lead which failure it was.
    const texts = userTexts(transcript(job, LEAD)).filter((t) => t.includes(refused));
    expect(texts.map((t) => /State-level failure (\d) of 3/.exec(t)?.[1])).toEqual(["1", "2", "3"]);
    // The outcome record was consumed each time: never committed.
    expect(git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1")).not.toContain("outcome.json");
    const notices = await commentsOfKind(job, "notice");
    expect(notices.map((c) => c.body)).toEqual([
      expect.stringContaining("**Failed:** retry budget spent in INTENT"),
    ]);
  });
});
