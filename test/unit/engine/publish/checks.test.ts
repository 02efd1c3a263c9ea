import { checkRunFields } from "../../../../src/adapters/github/check-run-fields.js";
import { describe, expect, it } from "vitest";
import { jobChecks } from "../../../../src/engine/publish/checks.js";
import { newJobRecord, type JobRecord } from "../../../../src/protocol/job-record.js";
import { transition } from "../../../../src/protocol/transition.js";
import type { Action } from "../../../../src/protocol/fsm.js";

const HEAD = "a".repeat(40);

function jobAfter(...actions: Action[]): JobRecord {
  let job = newJobRecord({ job: 7, title: "t", at: "2026-01-01T00:00:00Z" });
  for (const action of actions) {
    job = transition(job, action, {
      at: "2026-01-01T00:00:00Z",
      by: "x",
      reason: `${action} because`,
    });
  }
  return job;
}

const brief = (job: JobRecord) =>
  jobChecks(job, "@ana to review", HEAD).map((c) => `${c.name} ${c.conclusion ?? c.status}`);

describe("jobChecks: one check per phase reached, on the head", () => {
  it("a live job: passed phases succeed, the current one is in progress with the next move", () => {
    expect(brief(jobAfter())).toEqual(["cfa/intent in_progress"]);
    expect(brief(jobAfter("APPROVED_INTENT", "APPROVED_PLAN"))).toEqual([
      "cfa/intent success",
      "cfa/plan success",
      "cfa/execute in_progress",
    ]);
    expect(jobChecks(jobAfter(), "@ana to review", HEAD)[0]).toMatchObject({
      sha: HEAD,
      summary: "Next move: @ana to review",
    });
  });

  it("a paused job's current check says PAUSED and by whom in its title; the others keep theirs", () => {
    const paused = { by: "ana", since: "t", reason: "the weekend" };
    const checks = jobChecks(
      jobAfter("APPROVED_INTENT"),
      "a person to resume it",
      HEAD,
      undefined,
      paused,
    );
    expect(checks.map((c) => c.title)).toEqual([undefined, "cfa/plan: PAUSED by @ana"]);
    expect(checks[1]).toMatchObject({
      status: "in_progress",
      summary: "Next move: a person to resume it",
    });
    expect(checkRunFields(checks[1]!).output.title).toBe("cfa/plan: PAUSED by @ana");
    expect(checkRunFields(jobChecks(jobAfter(), "x", HEAD)[0]!).output.title).toBe(
      "cfa/intent: in progress",
    );
  });

  it("a backtrack goes back: REPLAN shows PLAN in progress and no EXECUTE check", () => {
    expect(brief(jobAfter("APPROVED_INTENT", "APPROVED_PLAN", "REPLAN"))).toEqual([
      "cfa/intent success",
      "cfa/plan in_progress",
    ]);
  });

  it("DONE succeeds all three; WITHDRAWN cancels and FAILURE fails the phase it ended in, with the reason", () => {
    expect(brief(jobAfter("APPROVED_INTENT", "APPROVED_PLAN", "APPROVED_WORK"))).toEqual([
      "cfa/intent success",
      "cfa/plan success",
      "cfa/execute success",
    ]);
    expect(brief(jobAfter("APPROVED_INTENT", "WITHDRAW"))).toEqual([
      "cfa/intent success",
      "cfa/plan cancelled",
    ]);
    const failed = jobChecks(jobAfter("FAILURE"), "nobody", HEAD);
    expect(failed).toEqual([
      expect.objectContaining({
        name: "cfa/intent",
        status: "completed",
        conclusion: "failure",
        summary: "FAILURE because",
      }),
    ]);
  });

  it("every phase's summary ends with the job's picture when one is given", () => {
    const picture = "```mermaid\nstateDiagram-v2\n```";
    const checks = jobChecks(jobAfter("APPROVED_INTENT"), "@ana to review", HEAD, picture);
    expect(checks.map((c) => c.summary)).toEqual([
      `Approved.\n\n${picture}`,
      `Next move: @ana to review\n\n${picture}`,
    ]);
  });
});
