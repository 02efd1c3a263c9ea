// Follow-ups (docs/protocol.md#jobs-and-states): a review requesting changes after DONE, or
// `/cfa <request>`, starts a new job on the same branch and pull request — round 2 of the
// issue, its records in `.cfa/jobs/1.2/` — from INTENT, its intent lead given the request and
// the earlier job's artifacts and diff; the earlier job's records never change. Real git, the
// local forge, the scripted model.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import { ART, finish, happyRecording, pass } from "../support/engine/recordings.js";
import { approveGates, openJob, requestChanges, say as comment } from "../support/engine/person.js";
import { createLocalJob, git, type LocalJob } from "../support/engine/local-job.js";
import { asConversationModel } from "../support/engine/local-job.js";

const FU = ".cfa/jobs/1.2";
const fuArtifact = (name: string, content: string) =>
  tools(call("write_file", { path: `${FU}/${name}`, content }));
const fuGate = (name: string) =>
  tools(
    call("ask_question", { kind: "gate", text: `${name} is ready`, artifact: `${FU}/${name}` }),
  );

/** The follow-up: INTENT, PLAN, one task (`shout`), each gate approved. */
const followUpInstances = () => ({
  "intent-lead@state:intent:2": [
    {
      ...fuArtifact("INTENT.md", "# Intent\n\nShout hello.\n"),
      expect: { lastUserIncludes: "Shout it" },
    },
    fuGate("INTENT.md"),
    finish("APPROVED_INTENT"),
  ],
  "project-lead@state:plan:2": [
    fuArtifact("PLAN.md", "# Plan\n\nTask: shout.\n"),
    fuGate("PLAN.md"),
    finish("APPROVED_PLAN"),
  ],
  "project-lead@state:execute:2": [
    tools(call("dispatch", { id: "shout", brief: "Make hello.txt say HELLO", files: [] })),
    say("Dispatched."),
    tools(call("close", { task: "shout" })),
    fuArtifact("WORK_SUMMARY.md", "# Summary\n\nhello.txt shouts.\n"),
    fuGate("WORK_SUMMARY.md"),
    finish("APPROVED_WORK"),
  ],
  "worker@dispatch:shout": [
    tools(call("write_file", { path: "hello.txt", content: "HELLO\n" })),
    tools(call("reply", { text: "hello.txt shouts" })),
    say("done"),
  ],
  "verifier@verify:shout-1": pass(),
});

describe("a follow-up after DONE", () => {
  let job: LocalJob;
  let doneCommit: string;
  beforeAll(async () => {
    const base = happyRecording() as { version: number; instances: Record<string, unknown[]> };
    job = await createLocalJob({
      recording: recording({ ...base.instances, ...followUpInstances() } as never),
    });
    await openJob(job);
    const summary = await approveGates(job, 3, wake);
    expect(summary.state).toBe("DONE");
    doneCommit = git(job.repoDir, "rev-parse", "cfa/1");
    await requestChanges(job, "Shout it, please.", [
      { path: "hello.txt", line: 1, body: "Upper case", diffHunk: "@@ -0,0 +1 @@\n+hello" },
    ]);
  });
  afterAll(() => job.cleanup());

  it("starts round 2 from INTENT with the review as its request, and runs it to DONE", async () => {
    const summary = await approveGates(job, 3, wake);
    expect(summary.state).toBe("DONE");
    const state = JSON.parse(git(job.repoDir, "show", `cfa/1:${FU}/state.json`)) as {
      state: string;
      priorEntries: unknown;
      engine: { followUp: { round: number; request: { kind: string; body: string } } };
    };
    expect(state.state).toBe("DONE");
    expect(state.priorEntries).toEqual({ INTENT: 1, PLAN: 1, EXECUTE: 1 });
    expect(state.engine.followUp).toMatchObject({
      round: 2,
      request: { kind: "review", body: "Shout it, please." },
    });
    expect(git(job.repoDir, "show", "cfa/1:hello.txt")).toBe("HELLO");
    expect(asConversationModel(job.model).unplayed()).toEqual({});
  });

  it("keeps the parent's records exactly as they were at DONE", () => {
    expect(git(job.repoDir, "rev-parse", `cfa/1:${ART}`)).toBe(
      git(job.repoDir, "rev-parse", `${doneCommit}:${ART}`),
    );
    // The follow-up's commits come after the parent's DONE commit, on the same branch.
    git(job.repoDir, "merge-base", "--is-ancestor", doneCommit, "cfa/1");
  });

  it("a second request after the follow-up ended starts round 3 only when asked", async () => {
    await comment(job, "thanks!");
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("DONE");
    expect(
      git(job.repoDir, "ls-tree", "--name-only", "cfa/1:.cfa/jobs").split("\n").sort(),
    ).toEqual(["1", "1.2"]);
  });
});
