// The retry budget counts consecutive state-level failures: a successful turn in the state resets
// it, so failures scattered over a long state do not add up; a run of budget + 1 failures still
// fails the state. PENDING nudges of an idle lead spend none of it (waiting is not failing); their
// own bound ends a lead that never finishes, naming itself.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { createConversationModel } from "../support/engine/conversation-model.js";
import { flakyModel } from "../support/engine/flaky-model.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { openJob } from "../support/engine/person.js";
import { commentsOfKind, state, transcript, userTexts } from "../support/engine/inspect.js";
import { call, recording, say, tools, type ScriptStep } from "../support/engine/script.js";
import { finish, gate, writeArtifact } from "../support/engine/recordings.js";

const LEAD = "intent-lead@state:intent:1";
const ask = (text: string) => tools(call("ask_question", { kind: "question", text }));
const answer = (text: string) => [tools(call("answer", { text }))];
const PLAN_GATE = (): ScriptStep[] => [
  writeArtifact("PLAN.md", "# Plan\n\nOne step.\n"),
  gate("PLAN.md", "Plan ready"),
];

describe("retry budget: consecutive failures", () => {
  const newJob = useLocalJobs();

  it("four failures scattered over INTENT, each followed by a successful turn, do not spend a budget of 3", async () => {
    // Every lead turn after the first asks the proxy something; the first model call of
    // four of those turns fails once. Before: failures 1, 2, 3, 4 → FAILURE. Now each
    // successful turn resets the count, so every failure is the first of its run.
    const script = recording({
      [LEAD]: [
        writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
        ask("English or Basque?"),
        ask("Lower case?"),
        ask("One file or two?"),
        ask("Any punctuation?"),
        gate("INTENT.md", "Is this your intent?"),
        finish("APPROVED_INTENT"),
      ],
      "proxy@escalation:q1": answer("English"),
      "proxy@escalation:q2": answer("Yes"),
      "proxy@escalation:q3": answer("Two"),
      "proxy@escalation:q4": answer("None"),
      "proxy@escalation:q5": answer("approved"),
      "project-lead@state:plan:1": PLAN_GATE(),
    });
    const model = flakyModel(createConversationModel(script), [
      `${LEAD}#2`,
      `${LEAD}#3`,
      `${LEAD}#4`,
      `${LEAD}#5`,
    ]);
    const job = await newJob({ model, config: "escalation:\n  INTENT: never\n" });
    await openJob(job);
    const summary = await wake(1, job.deps);

    expect(model.failed).toHaveLength(4);
    expect(summary.state).toBe("PLAN");
    expect(summary.waitingOn).toContain("review PLAN.md");
    const record = state(job);
    expect(record.history.map((h) => h.action)).toEqual(["APPROVED_INTENT"]);
    // Each failure was told to the lead as the first of its run.
    const told = userTexts(transcript(job, LEAD))
      .map((t) => /State-level failure (\d+) of 3/.exec(t)?.[1])
      .filter((n) => n !== undefined);
    expect(told).toEqual(["1", "1", "1", "1"]);
  });

  it("budget + 1 failures in a row still fail the state, naming the budget", async () => {
    const script = recording({
      [LEAD]: [writeArtifact("INTENT.md", "# Intent\n"), ask("Which language?"), say("unused")],
      "proxy@escalation:q1": answer("English"),
    });
    // Step 2 fails every time it is asked: 1 + the budget of 1 retries.
    const inner = createConversationModel(script);
    const model = flakyModel(inner, [`${LEAD}#2`]);
    let calls = 0;
    const alwaysFailing = {
      async complete(...args: Parameters<typeof model.complete>) {
        const step = args[0].messages.filter((m) => m.role === "assistant").length;
        if (args[0].instance === LEAD && step === 2) {
          calls += 1;
          throw new Error("test: the API returned 500");
        }
        return model.complete(...args);
      },
    };
    const job = await newJob({
      model: alwaysFailing,
      config: "escalation:\n  INTENT: never\nretryBudget: 1\n",
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("FAILURE");
    expect(calls).toBe(2);
    expect(state(job).history.at(-1)!.reason).toMatch(
      /^retry budget spent in INTENT \(2 failures, budget 1\)/,
    );
  });
});

describe("PENDING is free", () => {
  const newJob = useLocalJobs();

  /**
   * The intent lead writes INTENT.md, plays `steps`, asks its gate and finishes, the proxy
   * answering its questions with `answers` in turn; the project lead then asks its PLAN gate.
   * One wake: the job is in PLAN.
   */
  async function throughIntent(config: string, steps: ScriptStep[], answers: string[]) {
    const job = await newJob({
      config,
      recording: recording({
        [LEAD]: [
          writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
          ...steps,
          gate("INTENT.md", "Is this your intent?"),
          finish("APPROVED_INTENT"),
        ],
        ...Object.fromEntries(
          answers.map((text, i) => [`proxy@escalation:q${i + 1}`, answer(text)]),
        ),
        "project-lead@state:plan:1": PLAN_GATE(),
      }),
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("PLAN");
    return job;
  }

  it("an idle lead's nudges spend no retry budget: with budget 0 a lead that stops three times still finishes", async () => {
    const job = await throughIntent(
      "escalation:\n  INTENT: never\nretryBudget: 0\n",
      [say("Thinking about it."), say("Still thinking."), say("Nearly there.")],
      ["approved"],
    );
    const nudges = userTexts(transcript(job, LEAD)).filter((t) =>
      t.includes("You ended your turn without finishing"),
    );
    expect(nudges.map((t) => /Nudge (\d) of 5/.exec(t)?.[1])).toEqual(["1", "2", "3"]);
    expect(state(job).failures).toBe(0);
  });

  it("a lead that never finishes is stopped by the nudge bound, and the FAILURE names it", async () => {
    const job = await newJob({
      config: "nudges: 2\n",
      recording: recording({
        [LEAD]: [say("Hmm."), say("Hmm."), say("Hmm."), say("never reached")],
      }),
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("FAILURE");
    const reason = state(job).history.at(-1)!.reason;
    expect(reason).toMatch(/^nudge limit reached in INTENT \(3 nudges in a row, nudges 2\): /);
    expect(reason).toContain(`${LEAD} stopped without finishing`);
    const notices = await commentsOfKind(job, "notice");
    expect(notices.map((c) => c.body)).toEqual([expect.stringContaining("nudge limit reached")]);
  });

  it("progress restarts the nudge count: a lead that asks between its stops is never failed for them", async () => {
    const job = await throughIntent(
      "escalation:\n  INTENT: never\nnudges: 1\n",
      [say("Pause."), ask("Which language?"), say("Pause again.")],
      ["English", "approved"],
    );
    const nudges = userTexts(transcript(job, LEAD)).filter((t) => t.includes("Nudge "));
    expect(nudges.map((t) => /Nudge (\d) of 1/.exec(t)?.[1])).toEqual(["1", "1"]);
  });
});
