// Whose job it is, and a repository without drafts: an outsider opens the issue and a maintainer
// labels it, so the maintainer is the requester; `reviewers:` adds a login GitHub will not request
// a review from, and the gate says so; the repository cannot have draft pull requests, so the PR
// opens ready, the status says so, and DONE marks nothing.

import { describe, expect, it } from "vitest";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { jobRecord, routesWith, WHOLE_JOB_ROUTES } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import { happyRecording } from "../../support/engine/recordings.js";

describe("the requester and a repository without drafts", () => {
  const mocks = useGitHubMocks();
  const newJob = useGitHubJobs();

  it("an outsider's issue labelled by a maintainer: the maintainer's job, reviews asked of them, a refused reviewer named, a ready PR said so", async () => {
    const job = await newJob({
      recording: happyRecording({ anyOrder: true }),
      config: "reviewers: [bob]\n",
      // The repository's own config answers: the organisation's is never read.
      routes: routesWith(WHOLE_JOB_ROUTES, { minus: ["org-content"] }),
      issue: {
        title: "Greet the world",
        body: "Two files please",
        author: "outsider",
        labeledBy: "ana",
      },
    });
    const { github, probot } = job;
    github.draftsSupported = false;
    await probot.receive("issues", job.labelled(1, "ana"));

    expect(await job.runWorker(1)).toBe(0);
    const state = jobRecord<{ engine: { requester: string; prNotDraft?: boolean } }>(job);
    expect(state.engine.requester).toBe("ana");
    const pull = github.pulls[0]!;
    expect(pull.draft).toBe(false);
    // Asked of ana and bob together, refused (bob is no collaborator), then one by one.
    expect(pull.requested).toEqual(["ana"]);
    const kinds = () => github.botComments(1).map((c) => readHiddenBlock(c.body)?.kind);
    expect(kinds()).toEqual(["gate", "status"]);
    const gate = github.botComments(1)[0]!.body;
    expect(gate).toContain("@ana, @bob (gate `q1`, INTENT)");
    expect(gate).toContain(
      "GitHub would not request a review from @bob: Reviews may only be requested from collaborators.",
    );
    const status = () => github.botComments(1).find((c) => c.body.includes('"kind":"status"'))!;
    expect(status().body).toContain("@ana (or @bob) to review INTENT.md");
    expect(status().body).toContain(
      `The pull request #${pull.number} is not a draft: this repository does not support draft pull requests`,
    );

    // ana approves every gate; the job runs to DONE.
    for (let gateNumber = 1; gateNumber <= 3; gateNumber++) {
      await job.submitReview("ana");
      expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    }
    expect(jobRecord(job).state).toBe("DONE");
    // Never a draft, so nothing to mark ready: no mutation was sent.
    const graphqlBodies = mocks.recorder().bodies("graphql") as { query: string }[];
    expect(graphqlBodies.some((b) => b.query.includes("markPullRequestReadyForReview"))).toBe(
      false,
    );
    expect(status().body).not.toContain("is not a draft");
    expect(github.graphqlProblems).toEqual([]);
  });
});
