// Escalations to the person (src/engine/flow/escalations.ts): who a gate asks, questions put
// to the person once, answers relayed to the agent that asked as data, and what the person
// said remembered for their proxy (docs/protocol.md#escalation). Given the records, when the
// engine moves an escalation, then the comments, the mail and the memory it leaves. No git.

import { describe, expect, it } from "vitest";
import {
  gateReviewers,
  postToHuman,
  unpostedQuestions,
} from "../../../../src/engine/flow/escalations.js";
import { append } from "../../../../src/engine/job/session.js";
import { ingestHumanEvents } from "../../../../src/engine/people/ingest.js";
import { readText } from "../../../../src/engine/tree/files.js";
import { leadAsks, leadMail, withLead } from "../../../support/engine/memory-session.js";

describe("gateReviewers", () => {
  it("asks the job's requester first, then the configured reviewers, each login once whatever its case", async () => {
    const { s } = await withLead({ config: "reviewers: [bob, ANA, carol, Bob]\n" });
    expect(gateReviewers(s)).toEqual(["ana", "bob", "carol"]);
  });
});

describe("a question to the person", () => {
  it("is put to the person once: a question comment naming who asked, then it is no longer unposted", async () => {
    const session = await withLead();
    const { s } = session;
    const id = await leadAsks(session, { kind: "question", text: "English or French?" });

    expect(unpostedQuestions(s).map((m) => m.id)).toEqual([id]);
    await postToHuman(s, unpostedQuestions(s)[0]!);

    expect(unpostedQuestions(s)).toEqual([]);
    const comment = s.engine.outbox.at(-1)!;
    expect(comment.kind).toBe("question");
    expect(comment.body).toContain("English or French?");
    expect(comment.body).toContain(id);
  });

  it("an /answer reaches the agent that asked, as data, and the person's proxy remembers it", async () => {
    const session = await withLead();
    const { s, forge } = session;
    const id = await leadAsks(session, { kind: "question", text: "English or French?" });
    forge.comment("ana", "/answer English, please");

    await ingestHumanEvents(s);

    expect(s.engine.escalations[id]).toMatchObject({ answeredBy: "ana", verdict: "answer" });
    const mail = (await leadMail(session)).join("\n");
    expect(mail).toContain("@ana answered:");
    expect(mail).toContain("English, please");
    expect(mail).toContain("<untrusted-data");
    const memory = await readText(s.jobWs.root, ".cfa/proxy/ana.md");
    expect(memory).toContain(
      `${id} (question): asked "English or French?" — @ana replied: "English, please"`,
    );
  });

  it("with two questions open, an /answer without an id is refused, naming them; with one it answers that one", async () => {
    const session = await withLead();
    const { s, forge } = session;
    const first = await leadAsks(session, { kind: "question", text: "Which greeting?" });
    // The lead is woken by an intervention meanwhile and asks again before any answer.
    await append(s, s.soup.interrupt(session.lead.thread, { kind: "observe", text: "x" }).events);
    await append(s, s.soup.wake(session.lead).events);
    const second = await leadAsks(session, { kind: "question", text: "Which language?" });
    forge.comment("ana", "/answer Hello");
    forge.comment("ana", `/answer ${second} English`);

    await ingestHumanEvents(s);

    const refusals = s.engine.outbox.filter((item) => item.kind === "refusal");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.body).toContain(`several questions are open (${first}, ${second})`);
    expect(s.engine.escalations[first]?.answeredBy).toBeUndefined();
    expect(s.engine.escalations[second]?.answeredBy).toBe("ana");
  });
});
