// A dismissed gate review: branch protection's "Dismiss stale pull request
// approvals when new commits are pushed" dismisses the approval of a gate as soon as the
// job pushes its next phase. The reviewer gets one line saying what that means; a
// redelivery posts nothing more, and no worker is cued.

import { describe, expect, it } from "vitest";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { recording } from "../../support/engine/script.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";

describe("a dismissed review", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();

  it("gets its author one line, once, and cues no worker", async () => {
    const job = await newJob({ recording: recording({}) });
    const { github, probot } = job;
    github.install(["content", "org-content", "list-comments", "create-comment"]);
    github.openIssue({ number: 1, title: "Greet", body: "x", author: "ana", label: "cfa" });
    const commit = "c0ffee0000000000000000000000000000000000";
    const payload = job.dismissed(
      12,
      { id: 501, login: "ana", commitId: commit },
      "github-actions[bot]",
    );

    await probot.receive("pull_request_review", payload);
    await probot.receive("pull_request_review", payload);

    const replies = github.botComments(1);
    expect(replies).toHaveLength(1);
    expect(readHiddenBlock(replies[0]!.body)).toMatchObject({
      kind: "review-dismissed",
      review: 501,
    });
    expect(replies[0]!.body).toContain(
      "@ana: your review of `c0ffee0` on job #1's pull request was dismissed (dismissed by @\u200bgithub-actions[bot]). A gate it already answered stays answered",
    );
    expect(github.dispatches).toEqual([]);
  });
});
