// Escalation under each policy (docs/protocol.md#escalation): `always` puts the question to the
// person and the answer comes from `/answer`; under `when_unsure` the proxy answers or escalates;
// under `never` the proxy cannot escalate and answers itself. Every escalation reaches [respond].

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import type { ConversationModel } from "../support/engine/conversation-model.js";
import { type LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { openJob, say as comment } from "../support/engine/person.js";
import {
  commentsOfKind,
  fileOnBranch,
  foldedBus,
  state,
  transcript,
  userTexts,
} from "../support/engine/inspect.js";
import { call, expecting, recording, tools } from "../support/engine/script.js";
import { finish, gate, writeArtifact } from "../support/engine/recordings.js";

const LEAD = "intent-lead@state:intent:1";
const PROXY = "proxy@escalation:q1";
/** The proxy of the lead's gate, which follows its question. */
const GATE_PROXY = "proxy@escalation:q2";
const escalateGate = () => [tools(call("escalate", { question: "Please review INTENT.md." }))];
const QUESTION = "Which language should the greeting be in?";

const ask = () => tools(call("ask_question", { kind: "question", text: QUESTION }));

/** The lead drafts, asks, then revises with the answer (which it must receive) and asks for review. */
function lead(answer: string) {
  return [
    writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
    ask(),
    expecting(writeArtifact("INTENT.md", `# Intent\n\nGreet in ${answer}.\n`), answer),
    gate("INTENT.md"),
  ];
}

const policy = (p: string) => `escalation:\n  INTENT: ${p}\n`;

/** The [respond] lines of the bus: what each answer recorded. */
function answers(job: LocalJob): { id: string; data: Record<string, unknown> }[] {
  return foldedBus(job)
    .text.split("\n")
    .filter((line) => line.includes('"type":"respond"'))
    .map((line) => JSON.parse(line) as { id: string; answer: { data: Record<string, unknown> } })
    .map((line) => ({ id: line.id, data: line.answer.data }));
}

describe("escalation policies", () => {
  const newJob = useLocalJobs();

  it("always: the question becomes an issue comment and the /answer reaches the lead; no proxy runs", async () => {
    const job = await newJob({ recording: recording({ [LEAD]: lead("Catalan") }) });
    await openJob(job);
    let summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("to answer `q1`");
    const questions = await commentsOfKind(job, "question");
    expect(questions).toHaveLength(1);
    expect(questions[0]!.body).toContain(`> ${QUESTION}`);
    expect(questions[0]!.body).toContain("/answer q1");

    await comment(job, "/answer q1 Catalan, please");
    summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect(userTexts(transcript(job, LEAD)).join("\n")).toContain("@ana answered:");
    expect(fileOnBranch(job, ".cfa/jobs/1/instances/proxy@escalation~q1.jsonl")).toBeNull();
    // The proxy learns what the person said (its memory of the person).
    expect(fileOnBranch(job, ".cfa/proxy/ana.md")).toContain('replied: "Catalan, please"');
    // Every answer records its policy, whether the person was asked, and what the proxy read.
    expect(answers(job)[0]).toMatchObject({
      id: "q1",
      data: { policy: "always", humanAsked: true, filesRead: [] },
    });
  });

  it("when_unsure: the proxy answers itself, and nobody is asked", async () => {
    const job = await newJob({
      config: policy("when_unsure"),
      recording: recording({
        [LEAD]: lead("English"),
        [PROXY]: [
          expecting(tools(call("read_file", { path: ".cfa/jobs/1/INTENT.md" })), QUESTION),
          tools(call("answer", { text: "English, as in all her issues" })),
        ],
        [GATE_PROXY]: escalateGate(),
      }),
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect(await commentsOfKind(job, "question")).toEqual([]);
    expect(userTexts(transcript(job, LEAD)).join("\n")).toContain("English, as in all her issues");
    expect(answers(job)[0]).toEqual({
      id: "q1",
      data: {
        id: "q1",
        policy: "when_unsure",
        humanAsked: false,
        filesRead: [".cfa/jobs/1/INTENT.md"],
      },
    });
  });

  it("when_unsure: the proxy escalates its framed question, and the person's /answer reaches the lead", async () => {
    const job = await newJob({
      config: policy("when_unsure"),
      recording: recording({
        [LEAD]: lead("Basque"),
        [PROXY]: [tools(call("escalate", { question: "Ana, English or Basque?" }))],
        [GATE_PROXY]: escalateGate(),
      }),
    });
    await openJob(job);
    let summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("to answer `q1`");
    const [question] = await commentsOfKind(job, "question");
    expect(question!.body).toContain("> Ana, English or Basque?");

    await comment(job, "/answer Basque");
    summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect(foldedBus(job).folded.soup.pendingEscalations().length).toBe(1); // the gate, q2

    // A proxy's system prompt is fixed (a changed prefix loses the cache and earlier thinking) —
    // the person's memory and the policy travel in the message — so the gate's proxy, run after the
    // person's answer changed the memory, sends the same system bytes as q1's proxy, and its
    // message carries what it learned.
    const requests = (job.model as ConversationModel).requests;
    const proxyRequests = requests.filter((r) => r.instance.startsWith("proxy@"));
    expect(new Set(proxyRequests.map((r) => r.instance))).toEqual(new Set([PROXY, GATE_PROXY]));
    expect(new Set(proxyRequests.map((r) => r.request.system)).size).toBe(1);
    expect(proxyRequests[0]!.request.system).not.toContain("MEMORY of @");
    const gateOpening = requests.find((r) => r.instance === GATE_PROXY)!.request.messages[0]!;
    const openingText = JSON.stringify(gateOpening.content);
    expect(openingText).toContain("MEMORY of @ana");
    expect(openingText).toContain("Basque");
    expect(openingText).toContain("The escalation policy here is `when_unsure`");
  });

  it("a proxy that fails every run spends the retry budget: FAILURE, not a job that throws at every wake", async () => {
    const job = await newJob({
      config: policy("when_unsure"),
      // The proxy has no script: every request it makes is refused.
      recording: recording({ [LEAD]: lead("English") }),
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("FAILURE");
    const reason = state(job).history.at(-1)!.reason;
    expect(reason).toMatch(/^retry budget spent in INTENT \(4 failures, budget 3\): proxy q1: /);
    expect(await commentsOfKind(job, "question")).toEqual([]);
  });

  it("when_unsure: a proxy that withdraws answers [WITHDRAW], and the lead's WITHDRAW outcome ends the job", async () => {
    const job = await newJob({
      config: policy("when_unsure"),
      recording: recording({
        [LEAD]: [
          writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
          ask(),
          expecting(finish("WITHDRAW", "the person abandons the job"), "[WITHDRAW]\nshe said stop"),
        ],
        [PROXY]: [tools(call("withdraw", { reason: "she said stop" }))],
      }),
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("WITHDRAWN");
    expect(state(job).history.at(-1)).toMatchObject({
      action: "WITHDRAW",
      by: LEAD,
      reason: "the person abandons the job",
    });
  });

  it("never: the proxy's escalate is refused and it answers from what it knows, even a gate", async () => {
    const job = await newJob({
      config: policy("never"),
      recording: recording({
        [LEAD]: [
          ...lead("Galician"),
          expecting(finish("APPROVED_INTENT"), "approved (by the person's proxy)"),
        ],
        [PROXY]: [
          tools(call("escalate", { question: "Ana, which language?" })),
          expecting(
            tools(call("answer", { text: "Galician: her issue is written in it" })),
            "the escalation policy for this state is `never`",
          ),
        ],
        [GATE_PROXY]: [tools(call("answer", { text: "approved" }))],
        "project-lead@state:plan:1": [writeArtifact("PLAN.md", "# Plan\n"), gate("PLAN.md")],
      }),
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    // PLAN's policy is still `always`: its gate waits on the person.
    expect(summary.state).toBe("PLAN");
    expect(summary.waitingOn).toContain("review PLAN.md");
    expect(await commentsOfKind(job, "question")).toEqual([]);
    expect((await commentsOfKind(job, "gate")).map((g) => g.block.id)).toEqual(["q3"]);
    expect(userTexts(transcript(job, LEAD)).join("\n")).toContain(
      "Galician: her issue is written in it",
    );
  });
});
