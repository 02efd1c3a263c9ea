// A real job on the local forge, driven by a scripted model, to test the renderers over
// records the engine really writes: a question answered, a gate approved at every state, a
// task the verifier fails once and then passes, DONE.

import { readJobRecords, type JobRecordTexts } from "../../../src/cli/job-records.js";
import { wake } from "../../../src/engine/index.js";
import { createLocalJob, git, type LocalJob } from "../engine/local-job.js";
import { call, recording, say, tools } from "../engine/script.js";
import { finish, gate, writeArtifact, summedUp } from "../engine/recordings.js";

export function scriptedJobRecording() {
  return recording({
    "intent-lead@state:intent:1": [
      writeArtifact("INTENT.md", "# Intent\n\nGreet.\n"),
      tools(call("ask_question", { kind: "question", text: "English or French?" })),
      writeArtifact("INTENT.md", "# Intent\n\nGreet in English.\n"),
      gate("INTENT.md", "INTENT.md ready"),
      finish("APPROVED_INTENT", "approved"),
    ],
    "project-lead@state:plan:1": [
      writeArtifact("PLAN.md", "# Plan\n\nOne task: greet.\n"),
      gate("PLAN.md", "PLAN.md ready"),
      finish("APPROVED_PLAN", "approved"),
    ],
    "project-lead@state:execute:1": [
      tools(call("dispatch", { id: "greet", brief: "Write hello.txt saying hello", files: [] })),
      say("Dispatched greet."),
      tools(call("close", { task: "greet" })),
      say("The verifier sent it back."),
      tools(call("close", { task: "greet" })),
      ...summedUp("hello.txt."),
    ],
    "worker@dispatch:greet": [
      tools(call("write_file", { path: "hello.txt", content: "hello" })),
      tools(call("reply", { text: "hello.txt written" })),
      say("done"),
      tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
      tools(call("reply", { text: "added the final newline" })),
      say("done"),
    ],
    "verifier@verify:greet-1": [
      tools(
        call("verdict", { verdict: "fail", issues: ["hello.txt has no final newline"], notes: "" }),
      ),
    ],
    "verifier@verify:greet-2": [
      tools(call("run_command", { argv: ["cat", "hello.txt"] })),
      tools(call("verdict", { verdict: "pass", issues: [], notes: "ok" })),
    ],
  });
}

export interface ScriptedJob {
  job: LocalJob;
  texts: JobRecordTexts;
  /** Records as they stood while the job waited on the question. */
  waitingTexts: JobRecordTexts;
}

export async function runScriptedJob(): Promise<ScriptedJob> {
  const job = await createLocalJob({ recording: scriptedJobRecording() });
  const ana = { login: "ana", type: "User" as const };
  const approve = async () => {
    const pr = (await job.forge.findPullRequest("cfa/1"))!;
    const head = git(job.repoDir, "rev-parse", "cfa/1");
    await job.forge.submitReview({
      pr: pr.number,
      author: ana,
      state: "APPROVED",
      body: "",
      commitId: head,
    });
  };
  await job.forge.openIssue({ title: "Greet the world", body: "A greeting file", labels: ["cfa"] });
  await wake(1, job.deps);
  const waitingTexts = (await readJobRecords(job.repoDir, 1))!;
  await job.forge.commentAs(ana, 1, "/answer q1 English, please");
  await wake(1, job.deps);
  for (let i = 0; i < 3; i++) {
    await approve();
    await wake(1, job.deps);
  }
  const texts = (await readJobRecords(job.repoDir, 1))!;
  return { job, texts, waitingTexts };
}
