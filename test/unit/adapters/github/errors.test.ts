import { describe, expect, it } from "vitest";
import { GitHubForgeError } from "../../../../src/adapters/github/index.js";
import {
  TestProbotOctokit,
  TEST_INSTALLATION_TOKEN,
  nockGitHub,
  useGitHubMocks,
} from "../../../support/github/index.js";
import {
  JOB_PULL,
  R,
  TOKEN,
  issue,
  notFound,
  pullAlreadyExists,
  testForge,
} from "../../../support/github/github-shapes.js";
import { rejectionOf } from "../../../support/rejection-of.js";

describe("GitHub forge: errors", () => {
  useGitHubMocks();

  it("names the operation, the status and GitHub's request id, and says what to do", async () => {
    nockGitHub()
      .get(`${R}/issues/404`)
      .reply(404, notFound(), { "x-github-request-id": "CAFE:1234:5678:9ABC:DEF0" });

    const error = await rejectionOf(testForge().getIssue(404), GitHubForgeError);

    expect(error).toMatchObject({
      name: "GitHubForgeError",
      operation: "issues.get",
      status: 404,
      requestId: "CAFE:1234:5678:9ABC:DEF0",
    });
    expect(error.message).toMatch(
      /^cfa\/github: issues\.get failed \(HTTP 404, request id CAFE:1234:5678:9ABC:DEF0\): Not Found/,
    );
    expect(error.message).toMatch(/check owner\/repo/);
    expect(error.cause).toMatchObject({ name: "HttpError", status: 404 });
  });

  it("includes GitHub's validation details for a 422", async () => {
    nockGitHub().post(`${R}/pulls`).reply(422, pullAlreadyExists());

    const error = await rejectionOf(testForge().createPullRequest(JOB_PULL), GitHubForgeError);

    expect(error.message).toMatch(/A pull request already exists for octo-org:cfa\/1/);
  });

  it("never carries a token, in the message, the cause or anything serialised from them", async () => {
    const echoed = `Bad credentials for token ${TOKEN} (Authorization: token ${TOKEN})`;
    nockGitHub().get(`${R}/issues/1`).reply(401, { message: echoed });

    const error = await rejectionOf(testForge({ token: TOKEN }).getIssue(1), GitHubForgeError);

    const everything = [
      error.message,
      error.stack ?? "",
      String(error.cause),
      (error.cause as Error).stack ?? "",
      JSON.stringify(error),
      JSON.stringify(error.cause),
      JSON.stringify(Object.entries(error.cause as object)),
    ].join("\n");
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain("16C7e42F292c6912E7710c838347Ae178B4a");
    expect(error.message).toContain("[redacted]");
    expect(error.status).toBe(401);
  });

  it("reports a failed connection with no status", async () => {
    nockGitHub().get(R).replyWithError({ code: "ECONNRESET", message: "socket hang up" });

    const error = await rejectionOf(testForge().defaultBranch(), GitHubForgeError);

    expect(error.status).toBeUndefined();
    expect(error.operation).toBe("repos.get");
    expect(error.message).toMatch(/socket hang up/);
  });

  it("refuses a response it cannot read instead of passing garbage on", async () => {
    nockGitHub().get(`${R}/issues/1`).reply(200, { number: "one" });

    const error = await rejectionOf(testForge().getIssue(1), GitHubForgeError);

    expect(error.operation).toBe("issues.get");
    expect(error.message).toMatch(/returned a response this adapter cannot read/);
  });

  it("counts failed calls too", async () => {
    nockGitHub().get(`${R}/issues/1`).reply(500, { message: "oops" });
    const forge = testForge();

    await rejectionOf(forge.getIssue(1), GitHubForgeError);

    expect(forge.apiCalls()).toBe(1);
  });
});

describe("GitHub forge over a ProbotOctokit", () => {
  const github = useGitHubMocks();

  it("works with the Octokit Probot hands an event handler", async () => {
    nockGitHub()
      .get(`${R}/issues/1`)
      .matchHeader("authorization", `token ${TEST_INSTALLATION_TOKEN}`)
      .reply(200, issue(1));
    const octokit = new TestProbotOctokit({ auth: { token: TEST_INSTALLATION_TOKEN } });

    const read = await testForge({ octokit }).getIssue(1);

    expect(read.number).toBe(1);
    expect(github.recorder().calls()).toHaveLength(1);
  });
});
