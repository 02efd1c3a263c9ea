// The job's caps (src/engine/flow/enforce-caps.ts): past a cap the job fails, naming the cap
// in its reason, its notes and its commit (a cap fails the run, so someone looks:
// docs/protocol.md#recorded-decisions); at the cap it goes on.

import { describe, expect, it } from "vitest";
import { enforceJobCaps } from "../../../../src/engine/flow/enforce-caps.js";
import { applyChange } from "../../../../src/engine/job/session.js";
import { memorySession } from "../../../support/engine/memory-session.js";

describe("enforceJobCaps: a breached cap fails the job, naming the cap", () => {
  it("at a cap, not past it, nothing happens", async () => {
    const { s, commits } = await memorySession({ config: "caps: { turns: 2 }\n" });
    applyChange(s, { type: "turn-counted" });
    applyChange(s, { type: "turn-counted" });
    await enforceJobCaps(s);
    expect(s.job.state).toBe("INTENT");
    expect(commits).toEqual([]);
  });

  it("past the turns cap the job fails, the note and the commit name it", async () => {
    const { s, commits } = await memorySession({ config: "caps: { turns: 2 }\n" });
    for (let turn = 0; turn < 3; turn++) applyChange(s, { type: "turn-counted" });

    await enforceJobCaps(s);

    expect(s.job.state).toBe("FAILURE");
    expect(s.notes).toHaveLength(1);
    expect(s.notes[0]).toMatch(/turns/);
    expect(s.job.history.at(-1)?.reason).toBe(s.notes[0]);
    expect(commits).toContain("cfa #1: INTENT → FAILURE (turns)");
  });
});
