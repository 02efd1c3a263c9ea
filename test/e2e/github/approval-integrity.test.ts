// Approval integrity over GitHub: a review answers a gate only if its author
// has write access and it was made on the gate's commit; one that does not count gets one
// reply, from the worker alone (the app only cues). Changes requested carry the review's
// body and inline comments to the lead.

import { describe, expect, it } from "vitest";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { expecting, recording } from "../../support/engine/script.js";
import { finish, gate, writeArtifact } from "../../support/engine/recordings.js";
import { git, jobRecord, routesWith, WHOLE_JOB_ROUTES } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";

const BODY = "Name the files you will create.";
const INLINE = "Which greeting: hello or hi?";

function revising() {
  return recording({
    "intent-lead@state:intent:1": [
      writeArtifact("INTENT.md", "# Intent\n\nGreet.\n"),
      gate("INTENT.md", "Is this your intent?"),
      expecting(writeArtifact("INTENT.md", "# Intent\n\nGreet with hello.txt.\n"), INLINE),
      gate("INTENT.md", "Revised: is this your intent?"),
      finish("APPROVED_INTENT"),
    ],
    "project-lead@state:plan:1": [writeArtifact("PLAN.md", "# Plan\n\nhello\n"), gate("PLAN.md")],
  });
}

describe("approval integrity on GitHub", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();

  it("an approval without write access or of a stale commit gets one reply and changes nothing; changes requested reach the lead", async () => {
    const job = await newJob({
      recording: revising(),
      // The job stops before its tasks: no branch to delete; the refusals read the comments.
      routes: routesWith(WHOLE_JOB_ROUTES, { plus: ["list-comments"] }),
      issue: { body: "please" },
    });
    const { github, probot } = job;
    github.permissions.set("rea", "read");
    const state = () => jobRecord(job).state;
    const replies = () =>
      github
        .botComments(1)
        .map((c) => ({ block: readHiddenBlock(c.body), body: c.body }))
        // The worker's refusals, and the app's, which judged authority before dispatching
        // (an outsider starts no run): each review is answered by one of them, never both.
        .filter((c) => c.block?.kind === "refusal" || c.block?.kind === "review-refused");
    const review = async (
      login: string,
      state: "APPROVED" | "CHANGES_REQUESTED",
      commitId: string,
      extra = {},
    ) => {
      await job.submitReview(login, state, { commitId, ...extra });
      expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    };

    await probot.receive("issues", job.labelled(1, "ana"));
    expect(await job.runWorker(1)).toBe(0);
    const gateCommit = github.head("cfa/1");

    // Someone with read access approves the right commit: one reply, still INTENT.
    await review("rea", "APPROVED", gateCommit);
    expect(state()).toBe("INTENT");
    expect(replies()).toHaveLength(1);
    // The app answered it; the worker, run anyway, skipped it (src/worker/skip-refused.ts).
    expect(replies()[0]!.block?.kind).toBe("review-refused");
    expect(replies()[0]!.body).toContain("your review did not count");
    expect(replies()[0]!.body).toContain("you have read");

    // Ana approves a commit that is not the gate's (the default branch's): one more reply.
    await review("ana", "APPROVED", git(github.bare, "rev-parse", "main"));
    expect(state()).toBe("INTENT");
    expect(replies()).toHaveLength(2);
    expect(replies()[1]!.body).toContain("did not count");

    // Another wake reads nothing new: no reply is repeated.
    expect(await job.runWorker(1)).toBe(0);
    expect(replies()).toHaveLength(2);

    // Changes requested, with an inline comment: the lead revises (the script checks it saw
    // the inline comment) and asks again on a new commit.
    await review("ana", "CHANGES_REQUESTED", gateCommit, {
      body: BODY,
      comments: [{ path: ".cfa/jobs/1/INTENT.md", line: 3, body: INLINE }],
    });
    expect(state()).toBe("INTENT");
    const revised = github.head("cfa/1");
    expect(revised).not.toBe(gateCommit);

    await review("ana", "APPROVED", revised);
    expect(state()).toBe("PLAN");
    expect(replies()).toHaveLength(2);
  });
});
