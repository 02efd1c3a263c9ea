// Gates answered by reviews (README, "How a job works": gate): request changes → the lead revises
// (ASSERT → REVISE, docs/protocol.md#skill-contract) and asks again; only a review of the artifact
// under review counts.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { ANA, approve, openJob, requestChanges } from "../support/engine/person.js";
import { commentsOfKind, state, transcript, userTexts } from "../support/engine/inspect.js";
import { expecting, recording } from "../support/engine/script.js";
import { finish, gate, writeArtifact } from "../support/engine/recordings.js";

const REVIEW_BODY = "Name the files you will create.";
const INLINE = "Say which greeting: hello or hi?";

function revisingRecording() {
  return recording({
    "intent-lead@state:intent:1": [
      writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
      gate("INTENT.md", "Is this your intent?"),
      // The review reaches the lead as the answer to its gate: body and inline comments.
      expecting(
        writeArtifact("INTENT.md", "# Intent\n\nObjective: greet with hello.txt saying hello.\n"),
        REVIEW_BODY,
      ),
      gate("INTENT.md", "Revised: is this your intent?"),
      expecting(finish("APPROVED_INTENT"), "approved by @ana"),
    ],
    "project-lead@state:plan:1": [
      writeArtifact("PLAN.md", "# Plan\n\nOne task: hello.\n"),
      gate("PLAN.md"),
    ],
  });
}

describe("gate reviews", () => {
  const newJob = useLocalJobs();

  it("changes requested at a gate reach the lead with the review's body and inline comments; the revised artifact's gate is approved", async () => {
    const job = await newJob({ recording: revisingRecording() });
    await openJob(job);
    expect((await wake(1, job.deps)).waitingOn).toContain("gate `q1`");

    await requestChanges(job, REVIEW_BODY, [
      { path: ".cfa/jobs/1/INTENT.md", line: 3, body: INLINE },
    ]);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("INTENT");
    expect(summary.waitingOn).toContain("gate `q2`");

    const lead = userTexts(transcript(job, "intent-lead@state:intent:1"));
    const answer = lead.find((t) => t.includes(REVIEW_BODY));
    expect(answer).toContain("changes requested by @ana");
    expect(answer).toContain(`\`.cfa/jobs/1/INTENT.md:3\`: ${INLINE}`);

    await approve(job);
    const done = await wake(1, job.deps);
    expect(done.state).toBe("PLAN");
    const record = state(job);
    expect(record.history).toEqual([
      expect.objectContaining({ action: "APPROVED_INTENT", by: "intent-lead@state:intent:1" }),
    ]);
    // Two INTENT gates were put to the person, each pinned to its own commit; q3 is PLAN's.
    const gates = await commentsOfKind(job, "gate");
    expect(gates.map((g) => g.block.id)).toEqual(["q1", "q2", "q3"]);
    expect(gates[0]!.block.sha).not.toBe(gates[1]!.block.sha);
  });

  it("a review of a commit whose artifact has changed since does not count and gets a reply", async () => {
    const job = await newJob({ recording: revisingRecording() });
    await openJob(job);
    await wake(1, job.deps);
    const firstGate = git(job.repoDir, "rev-parse", "cfa/1");
    await requestChanges(job, REVIEW_BODY, [
      { path: ".cfa/jobs/1/INTENT.md", line: 3, body: INLINE },
    ]);
    await wake(1, job.deps);

    // Ana approves the INTENT.md she saw first: the gate asks about the revised one.
    await approve(job, { commitId: firstGate });
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("INTENT");
    expect(summary.waitingOn).toContain("gate `q2`");
    const refusals = await commentsOfKind(job, "refusal");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.body).toContain(
      `@${ANA.login} your review of \`${firstGate.slice(0, 7)}\` did not count`,
    );

    // The same review read again (another wake) is not answered twice.
    await wake(1, job.deps);
    expect(await commentsOfKind(job, "refusal")).toHaveLength(1);

    await approve(job);
    expect((await wake(1, job.deps)).state).toBe("PLAN");
  });
});
