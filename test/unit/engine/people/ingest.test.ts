// Reading what people did and applying it at a turn boundary (src/engine/people/ingest.ts,
// human-events.ts, flow/escalations.ts humanReply): given the records and what was posted on
// the forge since the cursor, when the engine ingests, then each command or review by someone
// with authority changes the job once, and everyone else gets a one-line refusal (an event is
// a cue to re-read the forge since the cursor, never a change applied blindly; [human-reply],
// docs/protocol.md#withdrawal). No git.

import { describe, expect, it } from "vitest";
import { applyChange } from "../../../../src/engine/job/session.js";
import { ingestHumanEvents } from "../../../../src/engine/people/ingest.js";
import {
  leadAsks,
  leadMail,
  memorySession,
  withLead,
  type MemorySession,
} from "../../../support/engine/memory-session.js";

const GATE_COMMIT = "a".repeat(40);
const GATE_BLOB = "b".repeat(40);

/** The INTENT lead asked for its gate: a review of GATE_COMMIT, where INTENT.md is GATE_BLOB, answers it. */
async function atGate() {
  const session = await withLead();
  const { s, forge, blobs } = session;
  const gate = await leadAsks(session, {
    kind: "gate",
    text: "Ok?",
    artifact: s.paths.artifact("INTENT.md"),
  });
  applyChange(s, {
    type: "escalation-noted",
    id: gate,
    patch: { gateSha: GATE_COMMIT, gateBlob: GATE_BLOB },
  });
  await forge.createPullRequest({
    head: "cfa/1",
    base: "main",
    title: "t",
    body: "b",
    draft: true,
  });
  applyChange(s, { type: "pull-request-opened", number: 5, draft: true, body: "" });
  blobs.set(GATE_COMMIT, GATE_BLOB);
  return { ...session, gate };
}

const refusals = (session: MemorySession) =>
  session.s.engine.outbox.filter((item) => item.kind === "refusal").map((item) => item.body);

describe("commands in comments", () => {
  it("a /withdraw by someone with write access ends the job WITHDRAWN, committed once", async () => {
    const session = await memorySession();
    const { s, forge, commits } = session;
    forge.comment("ana", "/withdraw not needed after all");

    expect(await ingestHumanEvents(s)).toBe(true);

    expect(s.job.state).toBe("WITHDRAWN");
    expect(s.job.history.at(-1)).toMatchObject({ by: "@ana", reason: "not needed after all" });
    expect(commits).toContain("cfa #1: INTENT → WITHDRAWN");
  });

  it("a /withdraw by someone with read access is refused in one reply and changes nothing", async () => {
    const session = await memorySession();
    const { s, forge } = session;
    forge.comment("rea", "/withdraw");

    await ingestHumanEvents(s);

    expect(s.job.state).toBe("INTENT");
    expect(refusals(session)).toHaveLength(1);
    expect(refusals(session)[0]).toContain("only people with write access can use `/withdraw`");
  });

  it("a comment is read once: the cursor moves past it and the next ingest finds nothing", async () => {
    const session = await memorySession();
    const { s, forge, commits } = session;
    const comment = forge.comment("rea", "/withdraw");
    await ingestHumanEvents(s);
    expect(s.engine.cursor.comment).toBe(comment.id);
    expect(commits).toEqual(["cfa #1: read people's replies"]);

    expect(await ingestHumanEvents(s)).toBe(false);
    expect(refusals(session)).toHaveLength(1);
    expect(commits).toHaveLength(1);
  });

  it("the bot's own comments and other bots' are not commands", async () => {
    const session = await memorySession();
    const { s, forge } = session;
    forge.comment(forge.botLogin, "/withdraw");
    forge.comment("dependabot[bot]", "/withdraw");
    expect(await ingestHumanEvents(s)).toBe(false);
    expect(s.job.state).toBe("INTENT");
  });

  it("a cursor moved only past comments that ask nothing is not a commit of its own: it rides with the next", async () => {
    const session = await memorySession();
    const { s, forge, commits } = session;
    const last = forge.comment(forge.botLogin, "the status");
    forge.comment("ana", "thanks, looks good");
    expect(await ingestHumanEvents(s)).toBe(false);
    expect(s.engine.cursor.comment).toBeGreaterThan(last.id);
    expect(commits).toEqual([]);
    // Positive control: a comment that asks something is committed at once.
    forge.comment("rea", "/withdraw");
    await ingestHumanEvents(s);
    expect(commits).toEqual(["cfa #1: read people's replies"]);
  });

  it("an /answer with no open question is refused and saying so changes nothing", async () => {
    const session = await memorySession();
    const { s, forge } = session;
    forge.comment("ana", "/answer use ISO dates");
    await ingestHumanEvents(s);
    expect(refusals(session)[0]).toContain("there is no open question to answer");
    expect(s.job.state).toBe("INTENT");
  });

  it("the issue closed, or its label removed, withdraws the job", async () => {
    const closed = await memorySession();
    closed.forge.issue.state = "closed";
    await ingestHumanEvents(closed.s);
    expect(closed.s.job.state).toBe("WITHDRAWN");
    expect(closed.s.job.history.at(-1)?.by).toBe("issue closed");

    const unlabelled = await memorySession();
    unlabelled.forge.issue.labels = [];
    await ingestHumanEvents(unlabelled.s);
    expect(unlabelled.s.job.history.at(-1)?.reason).toBe("the `cfa` label was removed");
  });
});

describe("reviews at a gate", () => {
  it("an approval of the gate's commit by someone with write access reaches the lead as approved", async () => {
    const session = await atGate();
    session.forge.review("ana", "APPROVED", GATE_COMMIT);

    await ingestHumanEvents(session.s);

    expect(refusals(session)).toEqual([]);
    expect(session.s.engine.escalations[session.gate]).toMatchObject({
      answeredBy: "ana",
      verdict: "approved",
    });
    expect(await leadMail(session)).toContain("approved by @ana");
  });

  it("changes requested reach the lead with the review's words, kept as data", async () => {
    const session = await atGate();
    session.forge.review("ana", "CHANGES_REQUESTED", GATE_COMMIT, "Say who it greets.");

    await ingestHumanEvents(session.s);

    expect(session.s.engine.escalations[session.gate]?.verdict).toBe("changes");
    const mail = (await leadMail(session)).join("\n");
    expect(mail).toContain("changes requested by @ana");
    expect(mail).toContain("Say who it greets.");
    expect(mail).toContain("<untrusted-data");
  });

  it("a review of another commit, or by someone without write access, does not count: one reply each, the gate stays open", async () => {
    const session = await atGate();
    session.forge.review("ana", "APPROVED", "c".repeat(40));
    session.forge.review("rea", "APPROVED", GATE_COMMIT);

    await ingestHumanEvents(session.s);

    expect(refusals(session)).toHaveLength(2);
    expect(refusals(session)[0]).toContain("please review that commit");
    expect(refusals(session)[1]).toContain("answering a gate needs write access (you have read)");
    expect(session.s.engine.escalations[session.gate]?.answeredBy).toBeUndefined();
    expect(await leadMail(session)).toEqual([]);
  });

  it("an approval with no gate open is refused; a comment-only review is ignored", async () => {
    const session = await memorySession();
    const { s, forge } = session;
    applyChange(s, { type: "pull-request-opened", number: 5, draft: true, body: "" });
    forge.review("ana", "APPROVED", GATE_COMMIT);
    forge.review("ana", "COMMENTED", GATE_COMMIT, "nice");

    await ingestHumanEvents(s);

    expect(refusals(session)).toHaveLength(1);
    expect(refusals(session)[0]).toContain("there is no gate open right now");
  });
});
