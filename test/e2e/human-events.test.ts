// People's events at the edges (one writer per job; events are cues): authority
// checked live, each comment applied once however often it is read, a bad configuration
// answered once with no job, and no job without the label.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import type { Actor } from "../../src/ports/forge.js";
import { git, type LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approve, openJob, say as comment } from "../support/engine/person.js";
import {
  botComments,
  commentsOfKind,
  commitSubjects,
  foldedBus,
  state,
  taskBranches,
} from "../support/engine/inspect.js";
import { call, expecting, recording, tools } from "../support/engine/script.js";
import { gate, writeArtifact } from "../support/engine/recordings.js";

const LEAD = "intent-lead@state:intent:1";
const BOB: Actor = { login: "bob", type: "User" };

const draftAndGate = () => ({
  [LEAD]: [writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"), gate("INTENT.md")],
});

function branchExists(job: LocalJob, branch: string): boolean {
  return git(job.repoDir, "branch", "--list", "--format=%(refname:short)", branch) !== "";
}

describe("people's events", () => {
  const newJob = useLocalJobs();

  it("a /withdraw and an approval by a read-only user are refused with one reply each and change nothing", async () => {
    const job = await newJob({ recording: recording(draftAndGate()) });
    await job.forge.setPermission("bob", "read");
    await openJob(job);
    await wake(1, job.deps);

    await comment(job, "/withdraw I do not like it", { by: BOB });
    await approve(job, { by: BOB });
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("INTENT");
    expect(summary.waitingOn).toContain("gate `q1`");
    const refusals = await commentsOfKind(job, "refusal");
    expect(refusals.map((r) => r.body.split("\n")[0])).toEqual([
      "@bob only people with write access can use `/withdraw` on this job; nothing was changed.",
      "@bob your review did not count: answering a gate needs write access (you have read).",
    ]);
    expect(state(job).history).toEqual([]);
    expect(
      foldedBus(job)
        .folded.soup.pendingEscalations()
        .map((m) => m.kind),
    ).toEqual(["AskHuman"]);
    expect(commitSubjects(job).filter((m) => m.includes("WITHDRAWN"))).toEqual([]);
    expect(await job.forge.findPullRequest("cfa/1")).toMatchObject({ state: "open", draft: true });

    await wake(1, job.deps);
    expect(await commentsOfKind(job, "refusal")).toHaveLength(2);
  });

  it("the same comment read by two wakes is applied once", async () => {
    const job = await newJob({
      recording: recording({
        [LEAD]: [
          tools(call("ask_question", { kind: "question", text: "English or French?" })),
          expecting(writeArtifact("INTENT.md", "# Intent\n\nIn French.\n"), "French"),
          gate("INTENT.md"),
        ],
      }),
    });
    await openJob(job);
    await wake(1, job.deps);
    await comment(job, "/answer French");
    expect((await wake(1, job.deps)).waitingOn).toContain("gate `q2`");
    const comments = (await botComments(job)).length;
    const bus = foldedBus(job).text;

    // Read again: the cursor may catch up with the bot's own comments, nothing else.
    const again = await wake(1, job.deps);
    expect(again.waitingOn).toContain("gate `q2`");
    const after = git(job.repoDir, "rev-parse", "cfa/1");
    expect(await wake(1, job.deps)).toEqual(again);
    expect(git(job.repoDir, "rev-parse", "cfa/1")).toBe(after);
    expect(foldedBus(job).text).toBe(bus);
    expect((await botComments(job)).length).toBe(comments);
    expect(await commentsOfKind(job, "refusal")).toEqual([]);
    const replies = foldedBus(job)
      .text.split("\n")
      .filter((l) => l.includes('"type":"human-reply"'));
    expect(replies).toHaveLength(1);
  });

  it("closing the issue withdraws the job, naming why", async () => {
    const job = await newJob({ recording: recording(draftAndGate()) });
    await openJob(job);
    await wake(1, job.deps);
    await job.forge.closeIssue(1);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("WITHDRAWN");
    expect(state(job).history.at(-1)).toMatchObject({
      action: "WITHDRAW",
      by: "issue closed",
      reason: "the issue was closed",
    });
    expect((await job.forge.findPullRequest("cfa/1"))?.state).toBe("closed");
  });

  it("closing the job's pull request before the job is done withdraws it, naming why", async () => {
    const job = await newJob({ recording: recording(draftAndGate()) });
    await openJob(job);
    await wake(1, job.deps);
    const pr = (await job.forge.findPullRequest("cfa/1"))!;
    await job.forge.closePullRequest(pr.number);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("WITHDRAWN");
    expect(state(job).history.at(-1)).toMatchObject({
      action: "WITHDRAW",
      by: "pull request closed",
      reason: `the job's pull request #${pr.number} was closed before the job was done`,
    });
  });

  it("a bad .github/cfa.yml gets one comment naming the field, and no job starts", async () => {
    const job = await newJob({ config: "retryBudget: lots\nfanOut: 3\n" });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBeNull();
    expect(summary.notes.join("\n")).toContain("retryBudget");
    await wake(1, job.deps);

    const comments = await job.forge.listComments(1);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain("`.github/cfa.yml` is not valid");
    expect(comments[0]!.body).toContain("retryBudget");
    expect(branchExists(job, "cfa/1")).toBe(false);
    expect(await job.forge.findPullRequest("cfa/1")).toBeNull();
  });

  it("an issue without the label is not started", async () => {
    const job = await newJob({ recording: recording(draftAndGate()) });
    await openJob(job, ["bug"]);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBeNull();
    expect(branchExists(job, "cfa/1")).toBe(false);
    expect(taskBranches(job)).toEqual([]);
    expect(await job.forge.listComments(1)).toEqual([]);
  });
});
