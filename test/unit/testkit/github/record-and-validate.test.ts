import { Octokit } from "@octokit/rest";
import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { expectBody } from "../../../support/github/expect-body.js";
import { startGitHubMockSession } from "../../../support/github/github-mock-session.js";
import { nockGitHub } from "../../../support/github/nock-github.js";
import { recordAndValidate } from "../../../support/github/record-and-validate.js";
import { useGitHubMocks } from "../../../support/github/use-github-mocks.js";

// A plain Octokit, as the worker's GitHub adapter will use; no retry plugin, so an
// unmatched request fails at once.
function octokit(): Octokit {
  return new Octokit({ auth: "test-token", log: { debug() {}, info() {}, warn() {}, error() {} } });
}

describe("recordAndValidate under useGitHubMocks", () => {
  const github = useGitHubMocks();

  it("validates and counts every intercepted call, in order", async () => {
    nockGitHub()
      .get("/repos/o/r/issues/7")
      .reply(200, { number: 7 })
      .post("/repos/o/r/issues/7/comments", expectBody({ body: /status/ }))
      .reply(201, { id: 1 })
      .get("/repos/o/r/git/ref/heads%2Fcfa%2F7")
      .reply(200, { object: { sha: "abc" } });

    const gh = octokit();
    await gh.rest.issues.get({ owner: "o", repo: "r", issue_number: 7 });
    await gh.rest.issues.createComment({
      owner: "o",
      repo: "r",
      issue_number: 7,
      body: "job status",
    });
    await gh.rest.git.getRef({ owner: "o", repo: "r", ref: "heads/cfa/7" });

    expect(github.recorder().calls()).toEqual([
      { method: "GET", path: "/repos/o/r/issues/7", operationId: "issues/get" },
      {
        method: "POST",
        path: "/repos/o/r/issues/7/comments",
        operationId: "issues/create-comment",
      },
      { method: "GET", path: "/repos/o/r/git/ref/heads%2Fcfa%2F7", operationId: "git/get-ref" },
    ]);
    expect(github.recorder().bodies("issues/create-comment")).toEqual([{ body: "job status" }]);
    expect(github.recorder().invalid()).toEqual([]);
  });

  it("records the query of a paginated list call", async () => {
    nockGitHub()
      .get("/repos/o/r/issues")
      .query({ labels: "cfa", state: "open", per_page: "100" })
      .reply(200, []);
    await octokit().rest.issues.listForRepo({
      owner: "o",
      repo: "r",
      labels: "cfa",
      state: "open",
      per_page: 100,
    });
    expect(github.recorder().requests()).toMatchObject([
      {
        operationId: "issues/list-for-repo",
        query: { labels: "cfa", state: "open", per_page: "100" },
      },
    ]);
  });
});

describe("a GitHub mock session's verify()", () => {
  afterEach(() => {
    nock.cleanAll();
  });

  it("reports every invalid request with its operation, even when nock replied", async () => {
    const session = startGitHubMockSession();
    nockGitHub()
      .post("/repos/o/r/issues/1/comments")
      .reply(201, {})
      .patch("/repos/o/r/pulls/2")
      .reply(200, {});
    const gh = octokit();
    // Both calls "work" against nock; GitHub would reject the first and ignore `draft`.
    await gh.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      owner: "o",
      repo: "r",
      issue_number: 1,
      body: 5 as unknown as string,
    });
    await gh.request("PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
      owner: "o",
      repo: "r",
      pull_number: 2,
      draft: false,
    });
    expect(() => session.recorder.assertAllValid()).toThrow(AggregateError);
    expect(() => session.recorder.assertAllValid()).toThrow(/2 GitHub request\(s\)/);
    expect(() => session.verify()).toThrow(
      /issues\/create-comment\) is not a valid GitHub API request: body\/body must be string[\s\S]*pulls\/update\) is not a valid GitHub API request: body field draft/,
    );
  });

  it("reports a route outside the subset", async () => {
    const session = startGitHubMockSession();
    nockGitHub().get("/repos/o/r/stargazers").reply(200, []);
    await octokit().request("GET /repos/{owner}/{repo}/stargazers", { owner: "o", repo: "r" });
    expect(session.recorder.calls()).toEqual([
      { method: "GET", path: "/repos/o/r/stargazers", operationId: undefined },
    ]);
    expect(() => session.verify()).toThrow(/no operation in the subset matches this path/);
  });

  it("lists mocks that were never called", () => {
    const session = startGitHubMockSession();
    nockGitHub().delete("/repos/o/r/git/refs/heads%2Fcfa%2F7-t1").reply(204);
    expect(() => session.verify()).toThrow(
      /mocks never called:\n\s+DELETE https:\/\/api.github.com:443\/repos\/o\/r\/git\/refs\/heads%2Fcfa%2F7-t1/,
    );
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("lists unmatched requests and why a body matcher refused them", async () => {
    const session = startGitHubMockSession();
    nockGitHub()
      .post("/repos/o/r/issues/1/comments", expectBody({ body: "expected" }))
      .reply(201, {});
    await expect(
      octokit().rest.issues.createComment({
        owner: "o",
        repo: "r",
        issue_number: 1,
        body: "actual",
      }),
    ).rejects.toThrow(/No match/);
    expect(session.unmatched()).toEqual(["POST api.github.com/repos/o/r/issues/1/comments"]);
    expect(() => session.verify()).toThrow(
      /requests no mock matched:\n\s+POST api.github.com\/repos\/o\/r\/issues\/1\/comments\n\s+body mismatches seen:\n\s+body.body is "actual", expected "expected"/,
    );
  });

  it("passes when every mock was used and every request was valid", async () => {
    const session = startGitHubMockSession();
    nockGitHub()
      .post("/repos/o/r/issues/1/labels", expectBody({ labels: ["cfa"] }))
      .reply(200, []);
    await octokit().rest.issues.addLabels({
      owner: "o",
      repo: "r",
      issue_number: 1,
      labels: ["cfa"],
    });
    expect(() => session.verify()).not.toThrow();
  });
});

describe("recordAndValidate(scope)", () => {
  afterEach(() => {
    nock.cleanAll();
  });

  it("records only the scope it was given until stopped", async () => {
    const watched = nockGitHub().get("/repos/o/r").twice().reply(200, {});
    const other = nockGitHub().get("/repos/o/r/branches/main").reply(200, {});
    const recorder = recordAndValidate(watched);
    const gh = octokit();
    await gh.rest.repos.get({ owner: "o", repo: "r" });
    await gh.rest.repos.getBranch({ owner: "o", repo: "r", branch: "main" });
    recorder.stop();
    await gh.rest.repos.get({ owner: "o", repo: "r" });
    expect(recorder.calls()).toEqual([
      { method: "GET", path: "/repos/o/r", operationId: "repos/get" },
    ]);
    expect(other.isDone()).toBe(true);
  });
});
