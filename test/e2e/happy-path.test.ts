import { afterEach, describe, expect, it } from "vitest";
import { wake } from "../../src/engine/wake.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import { createLocalJob, git, type LocalJob } from "../support/engine/local-job.js";

const ART = ".cfa/jobs/1";

function happyRecording() {
  return recording({
    "intent-lead@state:intent:1": [
      tools(
        call("write_file", {
          path: `${ART}/INTENT.md`,
          content: "# Intent\n\nObjective: greet.\n",
        }),
      ),
      tools(
        call("ask_question", {
          kind: "gate",
          text: "Is this your intent?",
          artifact: `${ART}/INTENT.md`,
        }),
      ),
      tools(call("finish", { outcome: "APPROVED_INTENT", reason: "approved by the person" })),
    ],
    "project-lead@state:plan:1": [
      tools(
        call("write_file", { path: `${ART}/PLAN.md`, content: "# Plan\n\nTasks: hello, world.\n" }),
      ),
      tools(call("ask_question", { kind: "gate", text: "Plan ready", artifact: `${ART}/PLAN.md` })),
      tools(call("finish", { outcome: "APPROVED_PLAN", reason: "approved" })),
    ],
    "project-lead@state:execute:1": [
      tools(
        call("dispatch", { id: "hello", brief: "Create hello.txt containing hello", files: [] }),
        call("dispatch", { id: "world", brief: "Create world.txt containing world", files: [] }),
      ),
      say("Dispatched two tasks."),
      tools(call("close", { task: "hello" })),
      say("Closed hello."),
      tools(call("close", { task: "world" })),
      tools(
        call("write_file", {
          path: `${ART}/WORK_SUMMARY.md`,
          content: "# Summary\n\nBoth files exist.\n",
        }),
      ),
      tools(
        call("ask_question", {
          kind: "gate",
          text: "Work done",
          artifact: `${ART}/WORK_SUMMARY.md`,
        }),
      ),
      tools(call("finish", { outcome: "APPROVED_WORK", reason: "approved" })),
    ],
    "worker@dispatch:hello": [
      tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
      tools(call("reply", { text: "hello.txt written" })),
      say("done"),
    ],
    "worker@dispatch:world": [
      tools(call("write_file", { path: "world.txt", content: "world\n" })),
      tools(call("reply", { text: "world.txt written" })),
      say("done"),
    ],
    "verifier@verify:hello-1": [
      tools(call("verdict", { verdict: "pass", issues: [], notes: "ok" })),
    ],
    "verifier@verify:world-1": [
      tools(call("verdict", { verdict: "pass", issues: [], notes: "ok" })),
    ],
  });
}

async function approve(job: LocalJob, n = 1) {
  const pr = (await job.forge.findPullRequest(`cfa/${n}`))!;
  const head = git(job.repoDir, "rev-parse", `cfa/${n}`);
  await job.forge.submitReview({
    pr: pr.number,
    author: { login: "ana", type: "User" },
    state: "APPROVED",
    body: "",
    commitId: head,
  });
}

describe("a whole job on the local forge", () => {
  let job: LocalJob;
  afterEach(async () => job?.cleanup());

  it("runs INTENT → PLAN → EXECUTE → DONE with a person approving each gate", async () => {
    job = await createLocalJob({ recording: happyRecording() });
    const n = await job.forge.openIssue({
      title: "Greet the world",
      body: "Two files please",
      labels: ["cfa"],
    });
    expect(n).toBe(1);

    let summary = await wake(1, job.deps);
    expect(summary.state).toBe("INTENT");
    expect(summary.waitingOn).toContain("review INTENT.md");

    await approve(job);
    summary = await wake(1, job.deps);
    expect(summary.state).toBe("PLAN");
    expect(summary.waitingOn).toContain("review PLAN.md");

    await approve(job);
    summary = await wake(1, job.deps);
      console.log(
        git(job.repoDir, "show", "cfa/1:.cfa/jobs/1/instances/project-lead@state~execute~1.jsonl"),
      );
    expect(summary.state).toBe("EXECUTE");
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");

    await approve(job);
    summary = await wake(1, job.deps);
    expect(summary.state).toBe("DONE");
      console.log(
        git(
          job.repoDir,
          "show",
          "cfa/1:.cfa/jobs/1/instances/project-lead@state~execute~1.jsonl",
        ).slice(0, 3000),
      );
      console.log(job.lines.map((l) => `${l.who} ${l.event} ${l.detail}`).join("\n"));
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).toContain("world.txt");
    expect(git(job.repoDir, "branch", "--list", "cfa/1-*")).toBe("");
  });
});
