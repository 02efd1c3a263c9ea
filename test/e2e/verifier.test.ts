// Tasks are verified before they merge (docs/protocol.md#run-visibility, verifier verdicts): a
// failed verdict goes back to the task's worker, and the task merges once a later verification
// passes.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { openJob } from "../support/engine/person.js";
import {
  fileOnBranch,
  foldedBus,
  state,
  taskBranches,
  transcript,
  userTexts,
} from "../support/engine/inspect.js";
import { call, expecting, recording, say, tools } from "../support/engine/script.js";
import { gate, pass, writeArtifact, proxiedToExecute } from "../support/engine/recordings.js";

const ISSUE = "hello.txt says hullo, not hello";

describe("verifier", () => {
  const newJob = useLocalJobs();

  it("a failed verdict goes back to the worker; the task merges once the next verification passes", async () => {
    const job = await newJob({
      config: "escalation:\n  INTENT: never\n  PLAN: never\n",
      recording: recording({
        ...proxiedToExecute(),
        "project-lead@state:execute:1": [
          tools(
            call("dispatch", { id: "hello", brief: "Create hello.txt saying hello", files: [] }),
          ),
          say("Dispatched."),
          tools(call("close", { task: "hello" })),
          expecting(say("Waiting for the fix."), "the verifier failed task hello"),
          expecting(tools(call("close", { task: "hello" })), "fixed"),
          writeArtifact("WORK_SUMMARY.md", "# Summary\n\nhello.txt says hello.\n"),
          gate("WORK_SUMMARY.md"),
        ],
        "worker@dispatch:hello": [
          tools(call("write_file", { path: "hello.txt", content: "hullo\n" })),
          tools(call("reply", { text: "hello.txt written" })),
          say("done"),
          expecting(tools(call("write_file", { path: "hello.txt", content: "hello\n" })), ISSUE),
          tools(call("reply", { text: "fixed" })),
          say("done"),
        ],
        "verifier@verify:hello-1": [
          tools(call("verdict", { verdict: "fail", issues: [ISSUE], notes: "" })),
        ],
        "verifier@verify:hello-2": pass(),
      }),
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("EXECUTE");
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");

    expect(fileOnBranch(job, "hello.txt")).toBe("hello");
    expect(taskBranches(job)).toEqual([]);
    expect((state(job).engine.tasks as Record<string, unknown>).hello).toMatchObject({
      status: "merged",
      verifyFailures: 1,
      lastVerdict: "pass",
    });
    expect(userTexts(transcript(job, "worker@dispatch:hello")).join("\n")).toContain(
      `The verifier failed your task:\n- ${ISSUE}`,
    );
    // Both verdicts are in the conversation log, in order.
    const verdicts = foldedBus(job).folded.audit.filter((e) => e.type === "verdict");
    expect(verdicts.map((v) => [v.task, v.verdict, v.issues])).toEqual([
      ["hello", "fail", [ISSUE]],
      ["hello", "pass", []],
    ]);
  });
});
