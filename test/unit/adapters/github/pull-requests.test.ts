import { describe, expect, it } from "vitest";
import { expectBody, nockGitHub, useGitHubMocks } from "../../../support/github/index.js";
import {
  BOT,
  HEAD_SHA,
  JOB_PULL,
  R,
  pullAlreadyExists,
  pullRequest,
  recordingLogger,
  review,
  reviewComment,
  testForge,
} from "../../../support/github/github-shapes.js";

// Pull requests and their reviews (src/adapters/github/pull-requests.ts).
const github = useGitHubMocks();

describe("GitHub forge: pull requests", () => {
  it("finds the job's pull request by head, preferring an open one", async () => {
    nockGitHub()
      .get(`${R}/pulls`)
      .query({ head: "octo-org:cfa/1", state: "all", per_page: "100" })
      .reply(200, [
        pullRequest(9, { state: "closed", draft: false }),
        pullRequest(12, { state: "open" }),
      ]);

    await expect(testForge().findPullRequest("cfa/1")).resolves.toEqual({
      number: 12,
      head: "cfa/1",
      base: "main",
      draft: true,
      state: "open",
      url: "https://github.com/octo-org/hello-world/pull/12",
      author: { login: BOT, type: "Bot" },
    });
  });

  it("falls back to the newest closed one, and to null when there is none", async () => {
    nockGitHub()
      .get(`${R}/pulls`)
      .query({ head: "octo-org:cfa/2", state: "all", per_page: "100" })
      .reply(200, [pullRequest(20, { head: "cfa/2", state: "closed" })])
      .get(`${R}/pulls`)
      .query({ head: "octo-org:cfa/3", state: "all", per_page: "100" })
      .reply(200, []);
    const forge = testForge();

    expect((await forge.findPullRequest("cfa/2"))?.number).toBe(20);
    await expect(forge.findPullRequest("cfa/3")).resolves.toBeNull();
  });

  it("opens a draft pull request", async () => {
    nockGitHub().post(`${R}/pulls`, expectBody(JOB_PULL)).reply(201, pullRequest(12));

    const pr = await testForge().createPullRequest(JOB_PULL);

    expect(pr).toMatchObject({ number: 12, draft: true, head: "cfa/1", base: "main" });
  });

  it("where drafts are not supported (GitHub's 422), opens it ready instead; a draft-less PR is never marked ready", async () => {
    nockGitHub()
      .post(`${R}/pulls`, expectBody({ draft: true }))
      .reply(422, {
        message: "Draft pull requests are not supported in this repository.",
        documentation_url: "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
      })
      .post(`${R}/pulls`, expectBody({ head: "cfa/1", draft: false }))
      .reply(201, pullRequest(12, { draft: false }));
    const { logger, lines } = recordingLogger();
    const forge = testForge({ logger });

    const pr = await forge.createPullRequest(JOB_PULL);
    await forge.markReadyForReview(12);

    expect(pr).toMatchObject({ number: 12, draft: false });
    expect(lines.map((l) => l.message)).toContain(
      "cfa/github: draft pull requests are not supported here; opening it ready",
    );
    // Two creates; no pulls/get and no GraphQL mutation for a PR that was never a draft.
    expect(github.operations()).toEqual(["pulls/create", "pulls/create"]);
  });

  it("knows the refusal in its Validation Failed form too (the message in `errors`)", async () => {
    // GitHub's REST answer for a plan without drafts has also been seen as a validation
    // error carrying the same sentence (e.g. in other clients' tests found with the search
    // tool); Octokit puts the errors into the error's message.
    nockGitHub()
      .post(`${R}/pulls`, expectBody({ draft: true }))
      .reply(422, {
        message: "Validation Failed",
        errors: [
          {
            resource: "PullRequest",
            code: "custom",
            message: "Draft pull requests are not supported in this repository.",
          },
        ],
        documentation_url: "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
      })
      .post(`${R}/pulls`, expectBody({ draft: false }))
      .reply(201, pullRequest(12, { draft: false }));

    const pr = await testForge().createPullRequest(JOB_PULL);
    expect(pr).toMatchObject({ number: 12, draft: false });
  });

  it("any other 422 on create is GitHub's refusal, not a reason to drop the draft", async () => {
    nockGitHub().post(`${R}/pulls`).reply(422, pullAlreadyExists());

    await expect(testForge().createPullRequest(JOB_PULL)).rejects.toMatchObject({
      name: "GitHubForgeError",
      status: 422,
    });
  });

  it("marks a draft it created ready with one mutation, by the node id it already has", async () => {
    nockGitHub()
      .post(`${R}/pulls`)
      .reply(201, pullRequest(12, { node_id: "PR_kwDOcreated" }))
      .post(
        "/graphql",
        (body: { variables: { pullRequestId: string } }) =>
          body.variables.pullRequestId === "PR_kwDOcreated",
      )
      .reply(200, { data: { markPullRequestReadyForReview: { pullRequest: { isDraft: false } } } });
    const forge = testForge();
    await forge.createPullRequest(JOB_PULL);

    await forge.markReadyForReview(12);
    await forge.markReadyForReview(12);

    expect(forge.apiCalls()).toBe(2);
  });

  it("updates only the fields given, and makes no call for none", async () => {
    nockGitHub()
      .patch(`${R}/pulls/12`, expectBody({ title: "New title", body: undefined }))
      .reply(200, pullRequest(12));
    const forge = testForge();

    await forge.updatePullRequest(12, { title: "New title" });
    await forge.updatePullRequest(12, {});

    expect(forge.apiCalls()).toBe(1);
  });

  it("closes a pull request", async () => {
    nockGitHub()
      .patch(`${R}/pulls/12`, expectBody({ state: "closed" }))
      .reply(200, pullRequest(12, { state: "closed" }));

    await testForge().closePullRequest(12);

    expect(github.operations()).toEqual(["pulls/update"]);
  });

  it("marks a draft ready for review through GraphQL with the PR's node id", async () => {
    nockGitHub()
      .get(`${R}/pulls/12`)
      .reply(200, pullRequest(12, { draft: true, node_id: "PR_kwDOABCD" }))
      .post(
        "/graphql",
        expectBody({
          query: /markPullRequestReadyForReview\(input: \{ pullRequestId: \$pullRequestId \}\)/,
          variables: { pullRequestId: "PR_kwDOABCD" },
        }),
      )
      .reply(200, {
        data: { markPullRequestReadyForReview: { pullRequest: { isDraft: false } } },
      });
    const forge = testForge();

    await forge.markReadyForReview(12);

    expect(github.operations()).toEqual(["pulls/get", "graphql"]);
    expect(forge.apiCalls()).toBe(2);
  });

  it("does nothing more when the pull request is already ready", async () => {
    nockGitHub()
      .get(`${R}/pulls/12`)
      .reply(200, pullRequest(12, { draft: false }));

    await testForge().markReadyForReview(12);
  });

  it("reports a GraphQL error as a GitHubForgeError", async () => {
    nockGitHub()
      .get(`${R}/pulls/12`)
      .reply(200, pullRequest(12, { draft: true }))
      .post("/graphql")
      .reply(200, {
        data: { markPullRequestReadyForReview: null },
        errors: [
          {
            type: "FORBIDDEN",
            path: ["markPullRequestReadyForReview"],
            message: "Resource not accessible by integration",
          },
        ],
      });

    await expect(testForge().markReadyForReview(12)).rejects.toMatchObject({
      name: "GitHubForgeError",
      operation: "graphql.markPullRequestReadyForReview",
      status: undefined,
      message: expect.stringMatching(
        /Resource not accessible by integration.*GitHub refused the request as it stands$/,
      ),
    });
  });

  it("requests reviews", async () => {
    nockGitHub()
      .post(`${R}/pulls/12/requested_reviewers`, expectBody({ reviewers: ["octocat"] }))
      .reply(201, pullRequest(12));
    const forge = testForge();

    expect(await forge.requestReview(12, ["octocat"])).toEqual({ refused: [] });
    expect(await forge.requestReview(12, [])).toEqual({ refused: [] });

    expect(forge.apiCalls()).toBe(1);
  });

  it("returns (and logs) a reviewer GitHub will not ask, with GitHub's reason, and continues", async () => {
    nockGitHub()
      .post(`${R}/pulls/12/requested_reviewers`)
      .reply(422, {
        message: "Validation Failed",
        errors: ["Review cannot be requested from pull request author."],
        documentation_url:
          "https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request",
      });
    const { logger, lines } = recordingLogger();

    const result = await testForge({ logger }).requestReview(12, [BOT]);

    expect(result.refused).toEqual([
      { login: BOT, reason: expect.stringMatching(/cannot be requested from pull request author/) },
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "warn", fields: { pr: 12, login: BOT } });
    expect(String(lines[0]?.fields?.["reason"])).toMatch(
      /cannot be requested from pull request author/,
    );
  });

  it("asks for the others one by one when one login in a batch is refused", async () => {
    const notCollaborator = {
      message:
        "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the octo-org/hello-world repository.",
      documentation_url:
        "https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request",
    };
    nockGitHub()
      .post(`${R}/pulls/12/requested_reviewers`, expectBody({ reviewers: ["octocat", "stranger"] }))
      .reply(422, notCollaborator)
      .post(`${R}/pulls/12/requested_reviewers`, expectBody({ reviewers: ["octocat"] }))
      .reply(201, pullRequest(12))
      .post(`${R}/pulls/12/requested_reviewers`, expectBody({ reviewers: ["stranger"] }))
      .reply(422, notCollaborator);
    const { logger, lines } = recordingLogger();
    const forge = testForge({ logger });

    const result = await forge.requestReview(12, ["octocat", "stranger"]);

    expect(result.refused.map((r) => r.login)).toEqual(["stranger"]);
    expect(result.refused[0]?.reason).toMatch(/only be requested from collaborators/);
    expect(lines.map((line) => line.fields?.["login"])).toEqual(["stranger"]);
    expect(forge.apiCalls()).toBe(3);
  });

  it("still fails on anything but a 422", async () => {
    nockGitHub()
      .post(`${R}/pulls/12/requested_reviewers`)
      .reply(403, { message: "Resource not accessible by integration" });

    await expect(testForge().requestReview(12, ["octocat"])).rejects.toMatchObject({
      name: "GitHubForgeError",
      status: 403,
    });
  });
});

/** The `diff_hunk` of GitHub's example review comment (github-shapes.ts reviewComment). */
const HUNK = "@@ -16,33 +16,40 @@ public class Connection : IConnection...";

describe("GitHub forge: listReviews", () => {
  it("returns every submitted review, with inline comments for change requests only", async () => {
    nockGitHub()
      .get(`${R}/pulls/12/reviews`)
      .query({ per_page: "100" })
      .reply(200, [
        review(80, "COMMENTED", { body: "Looks interesting" }),
        review(81, "CHANGES_REQUESTED", { body: "Please revise" }),
        review(82, "APPROVED", { body: null, commit_id: null }),
        review(83, "DISMISSED"),
        // An unsubmitted draft review: the port has no such state.
        review(84, "PENDING"),
      ])
      .get(`${R}/pulls/12/reviews/81/comments`)
      .query({ per_page: "100" })
      .reply(200, [
        reviewComment(10, 81, { path: ".cfa/jobs/1/INTENT.md", body: "Say who", line: 3 }),
        // Outdated on the current diff: the line on the reviewed commit is kept.
        reviewComment(11, 81, { path: "src/a.ts", body: "Why?", original_line: 9 }),
        // A comment on the whole file.
        reviewComment(12, 81, { path: "README.md", body: "Whole file" }),
      ]);
    const forge = testForge();

    const reviews = await forge.listReviews(12);

    expect(reviews).toEqual([
      {
        id: 80,
        author: { login: "octocat", type: "User" },
        state: "COMMENTED",
        body: "Looks interesting",
        commitId: HEAD_SHA,
        submittedAt: "2019-11-17T17:43:43Z",
        comments: [],
      },
      {
        id: 81,
        author: { login: "octocat", type: "User" },
        state: "CHANGES_REQUESTED",
        body: "Please revise",
        commitId: HEAD_SHA,
        submittedAt: "2019-11-17T17:43:43Z",
        // Each with the diff hunk it sits on, as GitHub sends it (`diff_hunk`).
        comments: [
          { path: ".cfa/jobs/1/INTENT.md", line: 3, body: "Say who", diffHunk: HUNK },
          { path: "src/a.ts", line: 9, body: "Why?", diffHunk: HUNK },
          { path: "README.md", line: null, body: "Whole file", diffHunk: HUNK },
        ],
      },
      {
        id: 82,
        author: { login: "octocat", type: "User" },
        state: "APPROVED",
        body: "",
        // No commit: can never match a gate's artifact.
        commitId: "",
        submittedAt: "2019-11-17T17:43:43Z",
        comments: [],
      },
      expect.objectContaining({ id: 83, state: "DISMISSED", comments: [] }),
    ]);
    expect(github.operations()).toEqual(["pulls/list-reviews", "pulls/list-comments-for-review"]);
    expect(forge.apiCalls()).toBe(2);
  });

  it("makes one call for a PR with no reviews", async () => {
    nockGitHub().get(`${R}/pulls/3/reviews`).query({ per_page: "100" }).reply(200, []);
    const forge = testForge();

    await expect(forge.listReviews(3)).resolves.toEqual([]);
    expect(forge.apiCalls()).toBe(1);
  });
});
