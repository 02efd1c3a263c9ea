// A lead that stops without finishing, asking or waiting on a task is nudged
// (src/engine/flow/nudge.ts): a PENDING turn, free of the retry budget, counted against its
// own bound (`nudges`), whose breach is a FAILURE naming the lead: an idle lead neither spends
// the retry budget nor keeps a job live forever.

import { describe, expect, it } from "vitest";
import { nudgeLead } from "../../../../src/engine/flow/nudge.js";
import { recoveriesTo, withLead } from "../../../support/engine/memory-session.js";

describe("nudgeLead: a lead that stops without finishing is nudged, within its own bound", () => {
  it("a nudge spends no retry budget: the lead is told to go on and the nudges are counted", async () => {
    const session = await withLead({ config: "nudges: 2\nretryBudget: 1\n" });
    const { s, lines } = session;

    await nudgeLead(s, session.lead);

    expect(s.job.state).toBe("INTENT");
    expect(s.job.nudges).toBe(1);
    expect(s.job.failures).toBe(0);
    expect(recoveriesTo(session, session.lead)).toHaveLength(1);
    expect(recoveriesTo(session, session.lead)[0]).toContain("(Nudge 1 of 2 in a row;");
    expect(lines.at(-1)).toMatchObject({ event: "NUDGE", detail: "1 of 2" });
  });

  it("past the bound, the job fails naming the lead that stopped, and the commit says nudges", async () => {
    const session = await withLead({ config: "nudges: 1\n" });
    const { s, commits } = session;
    await nudgeLead(s, session.lead);

    await nudgeLead(s, session.lead);

    expect(s.job.state).toBe("FAILURE");
    expect(s.job.history.at(-1)?.reason).toContain(
      "intent-lead@state:intent:1 stopped without finishing",
    );
    expect(commits.at(-2)).toBe("cfa #1: INTENT → FAILURE (nudges)");
  });
});
