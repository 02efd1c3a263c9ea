// Backtracks (docs/protocol.md#jobs-and-states): REPLAN from EXECUTE and REALIGN from PLAN re-enter
// the earlier state on a new thread, count one backtrack, and the re-entered lead starts at ALIGN
// because its artifact exists.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approveGates, openJob } from "../support/engine/person.js";
import { state, transcript, userTexts } from "../support/engine/inspect.js";
import { expecting, recording } from "../support/engine/script.js";
import {
  INTENT_STEPS,
  PLAN_STEPS,
  finish,
  gate,
  writeArtifact,
} from "../support/engine/recordings.js";
import type { LocalJob } from "../support/engine/local-job.js";

/** The re-entered lead's turn: it is told its artifact exists, rewrites it and asks again. */
const realigned = (artifact: string, content: string, question: string) => [
  expecting(writeArtifact(artifact, content), "it exists: ALIGN it"),
  gate(artifact, question),
];

/**
 * Opens job 1 and approves `gates` gates; the job then waits at `to`'s gate on its second
 * entry, one backtrack counted. Returns its record and the re-entered lead's first message.
 */
async function reenteredAt(job: LocalJob, gates: number, to: "INTENT" | "PLAN", lead: string) {
  await openJob(job);
  const summary = await approveGates(job, gates, wake);
  expect(summary.state).toBe(to);
  expect(summary.waitingOn).toContain(`review ${to}.md`);
  const record = state(job);
  expect(record.backtracks).toBe(1);
  expect(record.entry).toBe(2);
  return { record, begin: userTexts(transcript(job, lead))[0]! };
}

describe("backtracks", () => {
  const newJob = useLocalJobs();

  it("REPLAN from EXECUTE counts one backtrack and re-enters PLAN at ALIGN, with the old PLAN.md present", async () => {
    const job = await newJob({
      recording: recording({
        "intent-lead@state:intent:1": INTENT_STEPS(),
        "project-lead@state:plan:1": PLAN_STEPS(),
        "project-lead@state:execute:1": [
          finish("REPLAN", "the plan forgot that world.txt must be lowercase"),
        ],
        "project-lead@state:plan:2": realigned(
          "PLAN.md",
          "# Plan\n\nTasks: hello, world (lowercase).\n",
          "Re-planned",
        ),
      }),
    });
    const { record, begin } = await reenteredAt(job, 2, "PLAN", "project-lead@state:plan:2");
    expect(record.history.at(-1)).toMatchObject({
      from: "EXECUTE",
      action: "REPLAN",
      to: "PLAN",
      by: "project-lead@state:execute:1",
      reason: "the plan forgot that world.txt must be lowercase",
    });
    expect(begin).toContain("You lead the PLAN phase of job #1 (entry 2)");
    expect(begin).toContain("`.cfa/jobs/1/PLAN.md` — it exists: ALIGN it");
    expect(begin).toContain("You re-enter PLAN because EXECUTE backtracked (REPLAN)");
    expect(begin).toContain("the plan forgot that world.txt must be lowercase");
    // The old PLAN.md was in the lead's workspace: its write replaced it.
    expect(userTexts(transcript(job, "project-lead@state:plan:2"))[1]).toContain(
      "Replaced .cfa/jobs/1/PLAN.md",
    );
    // The earlier entry's thread was closed with its state: one lead per entry.
    const bus = git(job.repoDir, "show", "cfa/1:.cfa/jobs/1/bus.jsonl");
    expect(bus).toContain('"thread":"state:plan:1"');
    expect(bus).toMatch(
      /"type":"terminate"[^\n]*"thread":"state:execute:1"|"thread":"state:execute:1"[^\n]*"type":"terminate"/,
    );
  });

  it("REALIGN from PLAN counts one backtrack and re-enters INTENT at ALIGN", async () => {
    const job = await newJob({
      recording: recording({
        "intent-lead@state:intent:1": INTENT_STEPS(),
        "project-lead@state:plan:1": [finish("REALIGN", "who is the greeting for?")],
        "intent-lead@state:intent:2": realigned(
          "INTENT.md",
          "# Intent\n\nObjective: greet the world, in English.\n",
          "Realigned",
        ),
      }),
    });
    const { record, begin } = await reenteredAt(job, 1, "INTENT", "intent-lead@state:intent:2");
    expect(record.history.map((h) => `${h.from} ${h.action} ${h.to}`)).toEqual([
      "INTENT APPROVED_INTENT PLAN",
      "PLAN REALIGN INTENT",
    ]);
    expect(begin).toContain("(entry 2)");
    expect(begin).toContain("You re-enter INTENT because PLAN backtracked (REALIGN)");
  });
});
