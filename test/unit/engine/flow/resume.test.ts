import { describe, expect, it } from "vitest";
import { unsettledTransition } from "../../../../src/engine/flow/resume.js";
import { newJobRecord, type JobRecord } from "../../../../src/protocol/job-record.js";
import { transition } from "../../../../src/protocol/transition.js";
import type { Action } from "../../../../src/protocol/fsm.js";

function jobAfter(...actions: Action[]): JobRecord {
  let job = newJobRecord({ job: 7, title: "t", at: "2026-01-01T00:00:00Z" });
  for (const action of actions) {
    job = transition(job, action, { at: "2026-01-01T00:00:00Z", by: "x", reason: "r" });
  }
  return job;
}

describe("unsettledTransition: the committed transition whose effects a crash cut off", () => {
  it("none when every transition is settled, or when the record predates the counter", () => {
    expect(unsettledTransition(jobAfter(), 0)).toBeNull();
    expect(unsettledTransition(jobAfter("APPROVED_INTENT"), 1)).toBeNull();
    expect(unsettledTransition(jobAfter("APPROVED_INTENT"), undefined)).toBeNull();
  });

  it("the last transition, with the entry of the state it left (the thread to close)", () => {
    expect(unsettledTransition(jobAfter("APPROVED_INTENT"), 0)).toEqual({
      from: "INTENT",
      fromEntry: 1,
      action: "APPROVED_INTENT",
    });
    // INTENT → PLAN → INTENT (entry 2) → PLAN (entry 2) → EXECUTE: leaving PLAN's 2nd entry.
    const job = jobAfter("APPROVED_INTENT", "REALIGN", "APPROVED_INTENT", "APPROVED_PLAN");
    expect(job.entry).toBe(1);
    expect(unsettledTransition(job, 3)).toEqual({
      from: "PLAN",
      fromEntry: 2,
      action: "APPROVED_PLAN",
    });
    // Leaving INTENT's second entry (the first is the record's creation).
    expect(unsettledTransition(jobAfter("APPROVED_INTENT", "REALIGN", "WITHDRAW"), 2)).toEqual({
      from: "INTENT",
      fromEntry: 2,
      action: "WITHDRAW",
    });
  });
});
