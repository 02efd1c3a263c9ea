// Applying a transition and what follows it (src/engine/flow/transitions.ts), without git:
// given the records, when a transition is applied, then the record, the bus, the comments, the
// commits and the forge show it (the transition is logged and committed before its effects:
// docs/protocol.md#recorded-decisions; the state's thread closes, or the job's cascades:
// docs/protocol.md#withdrawal).

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ensureLead } from "../../../../src/engine/flow/leads.js";
import {
  afterTransition,
  applyTransition,
  handleEffects,
} from "../../../../src/engine/flow/transitions.js";
import { applyChange } from "../../../../src/engine/job/session.js";
import { writeText } from "../../../../src/engine/tree/files.js";
import { threads } from "../../../../src/protocol/address.js";
import { memorySession } from "../../../support/engine/memory-session.js";

describe("applyTransition", () => {
  it("given INTENT, when the gate is approved, then the record is in PLAN, the bus holds the transition and a comment is queued — nothing is committed yet", async () => {
    const { s, audit, queued, commits, lines } = await memorySession();

    const applied = await applyTransition(s, "APPROVED_INTENT", "@ana", "approved by the person");

    expect(applied).toEqual({ from: "INTENT", fromEntry: 1, action: "APPROVED_INTENT" });
    expect(s.job.state).toBe("PLAN");
    expect(s.job.history.at(-1)).toMatchObject({
      from: "INTENT",
      to: "PLAN",
      action: "APPROVED_INTENT",
      by: "@ana",
    });
    const logged = (await audit()).filter((e) => e.type === "transition");
    expect(logged).toHaveLength(1);
    expect(queued()).toEqual(["transition"]);
    expect(commits).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ who: "PLAN", event: "APPROVED_INTENT" });
  });

  it("an action that is no edge from the state is refused by the protocol, and nothing is logged", async () => {
    const { s, audit } = await memorySession();
    await expect(applyTransition(s, "APPROVED_WORK", "@ana", "x")).rejects.toThrow(
      /not an edge from INTENT/,
    );
    expect(s.job.state).toBe("INTENT");
    expect((await audit()).filter((e) => e.type === "transition")).toEqual([]);
  });
});

describe("afterTransition", () => {
  it("given a live lead, when its state ends, then the state's thread is closed and the close is committed", async () => {
    const { s, commits } = await memorySession();
    await ensureLead(s);
    const thread = threads.state("INTENT", 1);
    expect(s.soup.isTerminated(thread)).toBe(false);

    const applied = await applyTransition(s, "APPROVED_INTENT", "@ana", "approved");
    await afterTransition(s, applied);

    expect(s.soup.isTerminated(thread)).toBe(true);
    expect(commits.at(-1)).toBe("cfa #1: INTENT → PLAN: close intent");
    // Settled: the next wake does not replay it.
    expect(s.engine.settled).toBe(s.job.history.length);
  });

  it("given an open pull request, when the job is withdrawn, then the job thread is terminated, the pull request closed and a notice queued", async () => {
    const { s, forge, queued, commits } = await memorySession({ walk: ["APPROVED_INTENT"] });
    await ensureLead(s);
    applyChange(s, { type: "pull-request-opened", number: 5, draft: true, body: "" });

    const applied = await applyTransition(s, "WITHDRAW", "@ana", "not needed");
    await afterTransition(s, applied);

    expect(s.job.state).toBe("WITHDRAWN");
    expect(s.soup.isTerminated(threads.job())).toBe(true);
    expect(s.soup.isTerminated(threads.state("PLAN", 1))).toBe(true);
    expect(forge.did).toContain("close #5");
    expect(queued()).toEqual(["transition", "notice"]);
    expect(s.engine.outbox.at(-1)?.body).toContain("**Withdrawn.**");
    expect(commits.at(-1)).toBe("cfa #1: PLAN → WITHDRAWN: close plan");
  });

  it("a job that fails says why in its notice and leaves its pull request open", async () => {
    const { s, forge } = await memorySession();
    applyChange(s, { type: "pull-request-opened", number: 5, draft: true, body: "" });

    await afterTransition(s, await applyTransition(s, "FAILURE", "orchestrator", "turns cap (3)"));

    expect(s.job.state).toBe("FAILURE");
    expect(s.engine.outbox.at(-1)?.body).toContain("**Failed:** turns cap (3).");
    expect(forge.did).not.toContain("close #5");
  });

  it("given DONE with auditTrail: drop, the records but state.json leave the tree in their own commit and the pull request leaves draft", async () => {
    const { s, forge, commits } = await memorySession({
      config: "auditTrail: drop\n",
      walk: ["APPROVED_INTENT", "APPROVED_PLAN"],
    });
    applyChange(s, { type: "pull-request-opened", number: 5, draft: true, body: "" });
    await writeText(s.jobWs.root, s.paths.artifact("WORK_SUMMARY.md"), "# Summary\n");

    await afterTransition(s, await applyTransition(s, "APPROVED_WORK", "@ana", "approved"));

    expect(s.job.state).toBe("DONE");
    expect(commits.some((m) => m.includes("auditTrail: drop"))).toBe(true);
    expect(readdirSync(`${s.jobWs.root}/${s.paths.dir}`)).toEqual(["state.json"]);
    expect(forge.did).toContain("ready #5");
  });

  it("given DONE with the default auditTrail: keep, the records stay", async () => {
    const { s, commits } = await memorySession({ walk: ["APPROVED_INTENT", "APPROVED_PLAN"] });
    await afterTransition(s, await applyTransition(s, "APPROVED_WORK", "@ana", "approved"));
    expect(commits.some((m) => m.includes("auditTrail: drop"))).toBe(false);
    expect(readdirSync(`${s.jobWs.root}/${s.paths.dir}`).sort()).toEqual(
      ["bus.jsonl", "state.json"].sort(),
    );
  });
});

describe("handleEffects", () => {
  it("a dispatch past fan-out is recorded as queued, with its parent; dropped before it starts, it is marked dropped", async () => {
    const { s } = await memorySession({ walk: ["APPROVED_INTENT", "APPROVED_PLAN"] });
    const lead = { agent: "project-lead", thread: threads.state("EXECUTE", 1) };
    const content = { kind: "brief", text: "Write hello.txt" };

    await handleEffects(s, [
      {
        kind: "blocked",
        from: lead,
        to: { agent: "worker", thread: "dispatch:hello" },
        content,
        queued: 1,
      },
    ]);
    expect(s.engine.tasks["hello"]).toMatchObject({ status: "queued", brief: "Write hello.txt" });

    await handleEffects(s, [
      { kind: "blocked-dropped", from: lead, to: { agent: "worker", thread: "dispatch:hello" } },
    ]);
    expect(s.engine.tasks["hello"]?.status).toBe("dropped");
  });

  it("a refused send is logged, not applied", async () => {
    const { s, warnings } = await memorySession();
    const from = { agent: "intent-lead", thread: threads.state("INTENT", 1) };
    const payload = { kind: "terminate" as const, thread: "dispatch:gone" };
    const rejection = { reason: "terminated" as const, payload, message: "it ended" };
    await handleEffects(s, [{ kind: "refused", from, payload, rejection }]);
    expect(warnings).toEqual(["cfa #1: a send was refused: terminated"]);
    expect(s.engine.tasks).toEqual({});
  });
});
