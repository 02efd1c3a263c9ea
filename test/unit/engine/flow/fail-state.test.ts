// A state-level failure (src/engine/flow/fail-state.ts), without git: given the records and
// the retry budget, when a turn fails, then the instance hears which failure it was, or — the
// budget spent — the job ends in FAILURE naming it (so every job terminates:
// docs/protocol.md#invariants; the budget counts consecutive failures).

import { describe, expect, it } from "vitest";
import { failState } from "../../../../src/engine/flow/fail-state.js";
import { recoveriesTo, withLead } from "../../../support/engine/memory-session.js";

describe("failState: the retry budget counts consecutive state-level failures", () => {
  it("under the budget, the failure is counted and the instance is told which one it was", async () => {
    const session = await withLead({ config: "retryBudget: 3\n" });
    const { s } = session;

    await failState(s, "the turn erred", session.lead, "Your turn failed: boom.");
    await failState(s, "the turn erred", session.lead, "Your turn failed: again.");

    expect(s.job.state).toBe("INTENT");
    expect(s.job.failures).toBe(2);
    expect(recoveriesTo(session, session.lead)).toEqual([
      "Your turn failed: boom.\n(State-level failure 1 of 3 allowed.)",
      "Your turn failed: again.\n(State-level failure 2 of 3 allowed.)",
    ]);
  });

  it("past the budget, the job fails naming the failure, in a commit of its own, and nobody is told to retry", async () => {
    const session = await withLead({ config: "retryBudget: 1\n" });
    const { s, commits } = session;
    await failState(s, "the turn erred", session.lead, "first");

    await failState(s, "the outcome record was refused", session.lead, "second");

    expect(s.job.state).toBe("FAILURE");
    expect(s.job.history.at(-1)?.reason).toContain("the outcome record was refused");
    expect(commits).toContain("cfa #1: INTENT → FAILURE");
    // The cascade took the lead with the job: there is no one left to retry.
    expect(s.soup.isTerminated(session.lead.thread)).toBe(true);
    expect(recoveriesTo(session, session.lead).some((text) => text.startsWith("second"))).toBe(
      false,
    );
  });

  it("with nobody to tell (a proxy that cannot run), the failure is only counted", async () => {
    const session = await withLead();
    const before = session.s.soup.mailbox(session.lead).length;
    await failState(session.s, "the proxy could not run", null, "unused");
    expect(session.s.job.failures).toBe(1);
    expect(session.s.soup.mailbox(session.lead)).toHaveLength(before);
  });

  it("a job that is no longer live is left alone", async () => {
    const session = await withLead();
    session.s.job = { ...session.s.job, state: "WITHDRAWN" };
    await failState(session.s, "late", session.lead, "late");
    expect(session.s.job.failures).toBe(0);
    expect(session.commits).toEqual(["cfa #1: INTENT intent-lead sparked"]);
  });
});
