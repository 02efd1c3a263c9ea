// What the person said is remembered for their proxy (src/engine/flow/escalations.ts
// `remember`, docs/protocol.md#escalation): one line per reply in the requester's memory file in
// the job worktree, headed once, the question and the reply each on one line and cut.

import { describe, expect, it } from "vitest";
import { remember } from "../../../../src/engine/flow/escalations.js";
import { applyChange } from "../../../../src/engine/job/session.js";
import { readText } from "../../../../src/engine/tree/files.js";
import { proxyMemoryPath } from "../../../../src/records/job-paths.js";
import { sessionParts } from "../../../support/engine/session-parts.js";

function withQuestion(text: string) {
  const s = sessionParts();
  applyChange(s, {
    type: "escalation-opened",
    meta: { caller: "intent-lead@state:intent:1", kind: "question", state: "INTENT", text },
  });
  return { s, id: Object.keys(s.engine.escalations)[0]! };
}

describe("remember", () => {
  it("heads the requester's memory once, then adds one line per reply, whitespace made one line", async () => {
    const { s, id } = withQuestion("English\nor French?");

    await remember(s, id, "ana", "French,\n  always.");
    await remember(s, id, "ana", "approved");

    const memory = await readText(s.jobWs.root, proxyMemoryPath("ana"));
    expect(memory).toBe(
      "# What @ana has told cfa-bot's agents\n\n" +
        `- 2026-11-22 job #1 INTENT ${id} (question): asked "English or French?" — @ana replied: "French, always."\n` +
        `- 2026-11-22 job #1 INTENT ${id} (question): asked "English or French?" — @ana replied: "approved"\n`,
    );
  });

  it("cuts a long question to 300 characters and a long reply to 1000", async () => {
    const { s, id } = withQuestion("q".repeat(400));

    await remember(s, id, "ana", "r".repeat(1200));

    const line = (await readText(s.jobWs.root, proxyMemoryPath("ana")))!.split("\n")[2]!;
    expect(line).toContain(`asked "${"q".repeat(300)}"`);
    expect(line).toContain(`replied: "${"r".repeat(1000)}"`);
    expect(line).not.toContain("q".repeat(301));
  });

  it("refuses an escalation the records do not hold, writing nothing", async () => {
    const s = sessionParts();
    await expect(remember(s, "q9", "ana", "yes")).rejects.toThrow("escalation q9 has no record");
    expect(await readText(s.jobWs.root, proxyMemoryPath("ana"))).toBeNull();
  });
});
