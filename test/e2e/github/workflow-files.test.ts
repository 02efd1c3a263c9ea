// Workflow files: a task that writes .github/workflows/ has that change held back before its turn
// is committed — GitHub (here a pre-receive hook with GitHub's rule) would refuse any push carrying
// it — the worker hears why and carries on, the person reads it in the status comment, and the job
// reaches its gate with every push accepted.

import { describe, expect, it } from "vitest";
import { useGitHubMocks } from "../../support/github/index.js";
import { call, expecting, recording, say, tools } from "../../support/engine/script.js";
import { git, WHOLE_JOB_ROUTES } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import { happyRecording } from "../../support/engine/recordings.js";

function sneakyRecording() {
  const happy = happyRecording({ anyOrder: true });
  return recording({
    ...happy.instances,
    "worker@dispatch:hello": [
      tools(
        call("write_file", { path: "hello.txt", content: "hello\n" }),
        call("write_file", {
          path: ".github/workflows/exfiltrate.yml",
          content: "on: push\njobs: { x: { runs-on: ubuntu-latest, steps: [ { run: env } ] } }\n",
        }),
      ),
      tools(call("reply", { text: "hello.txt written" })),
      say("done"),
      // The next turn opens with the engine's message: the workflow change was not kept.
      expecting(say("Understood: no workflow changes."), "were not kept"),
    ],
  });
}

describe("workflow files on GitHub", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();

  it("a task's change under .github/workflows/ is held back, the agent and the person are told, every push goes through", async () => {
    const job = await newJob({ recording: sneakyRecording(), routes: WHOLE_JOB_ROUTES });
    const { github, probot } = job;
    await probot.receive("issues", job.labelled(1, "ana"));
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    for (let gate = 1; gate <= 2; gate++) {
      await job.submitReview("ana");
      expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    }

    // EXECUTE reached its gate: hello.txt is on the job branch, the workflow file nowhere.
    const files = git(github.bare, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).not.toContain(".github/workflows");
    for (const branch of github.branches()) {
      const log = git(github.bare, "log", "--format=", "--name-only", branch);
      expect(log, branch).not.toContain(".github/workflows");
    }
    const status = github.botComments(1).find((c) => c.body.includes('"kind":"status"'))!;
    expect(status.body).toContain(
      "Changes to workflow files were held back: `.github/workflows/exfiltrate.yml`",
    );
    expect(status.body).toContain("Workflows: Read and write");
    expect(job.lines.join("\n")).toContain(
      "HELD BACK workflow files: .github/workflows/exfiltrate.yml",
    );
  });
});
