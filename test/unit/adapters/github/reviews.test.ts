import { describe, expect, it } from "vitest";
import { nockGitHub, useGitHubMocks } from "../../../support/github/index.js";
import {
  HEAD_SHA,
  R,
  review,
  reviewComment,
  testForge,
} from "../../../support/github/github-shapes.js";

describe("GitHub forge: listReviews", () => {
  const github = useGitHubMocks();

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
        comments: [
          { path: ".cfa/jobs/1/INTENT.md", line: 3, body: "Say who" },
          { path: "src/a.ts", line: 9, body: "Why?" },
          { path: "README.md", line: null, body: "Whole file" },
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
