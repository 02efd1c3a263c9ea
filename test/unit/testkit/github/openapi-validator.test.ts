import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GitHubRequestInvalid } from "../../../support/github/github-request-invalid.js";
import { createGitHubValidator } from "../../../support/github/openapi-validator.js";

const validator = createGitHubValidator();

function rejection(request: { method: string; url: string; body?: unknown }): GitHubRequestInvalid {
  try {
    validator.validate(request);
  } catch (error) {
    if (error instanceof GitHubRequestInvalid) return error;
    throw error;
  }
  throw new Error(`expected ${request.method} ${request.url} to be rejected`);
}

const BRIEF_OPERATIONS = [
  "issues/get",
  "issues/update",
  "issues/list-comments",
  "issues/create-comment",
  "issues/update-comment",
  "issues/get-comment",
  "issues/add-labels",
  "issues/remove-label",
  "issues/list-events",
  "reactions/create-for-issue-comment",
  "reactions/create-for-issue",
  "reactions/create-for-pull-request-review-comment",
  "pulls/create",
  "pulls/get",
  "pulls/update",
  "pulls/list",
  "pulls/request-reviewers",
  "pulls/list-reviews",
  "pulls/get-review",
  "pulls/list-comments-for-review",
  "pulls/list-review-comments",
  "pulls/create-review-comment",
  "git/get-ref",
  "git/create-ref",
  "git/update-ref",
  "git/delete-ref",
  "repos/get",
  "repos/get-branch",
  "repos/get-content",
  "repos/get-collaborator-permission-level",
  "repos/list-collaborators",
  "checks/create",
  "checks/update",
  "checks/list-for-ref",
  "actions/create-workflow-dispatch",
  "actions/list-workflow-runs",
  "actions/list-workflow-runs-for-repo",
  "actions/cancel-workflow-run",
  "apps/get-repo-installation",
  "apps/create-installation-access-token",
  "graphql",
];

describe("the OpenAPI subset", () => {
  it("describes every operation the brief lists, plus GraphQL", () => {
    expect(validator.operationIds()).toEqual(expect.arrayContaining(BRIEF_OPERATIONS));
  });

  it("compiles under ajv for every operation (untyped nullable removed, repo.nwo known)", () => {
    const subset = JSON.parse(
      readFileSync(
        new URL("../../../fixtures/openapi/github-subset.json", import.meta.url),
        "utf8",
      ),
    ) as { paths: Record<string, Record<string, unknown>> };
    let checked = 0;
    for (const [template, item] of Object.entries(subset.paths)) {
      const url = template.replace(/\{[^}]+\}/g, "1");
      for (const method of Object.keys(item)) {
        // Any outcome but an ajv compile error is fine: valid, or a GitHubRequestInvalid.
        try {
          validator.validate({ method, url, body: {} });
        } catch (error) {
          expect(error).toBeInstanceOf(GitHubRequestInvalid);
        }
        checked += 1;
      }
    }
    expect(checked).toBe(validator.operationIds().length);
  });
});

describe("createGitHubValidator", () => {
  it("accepts a valid issue comment and names the operation", () => {
    const result = validator.validate({
      method: "POST",
      url: "/repos/o/r/issues/1/comments",
      body: JSON.stringify({ body: "hello" }),
    });
    expect(result).toMatchObject({
      operationId: "issues/create-comment",
      params: { owner: "o", repo: "r", issue_number: "1" },
      body: { body: "hello" },
    });
  });

  it("rejects a body field of the wrong type, naming the operation and the field", () => {
    const error = rejection({
      method: "POST",
      url: "/repos/o/r/issues/1/comments",
      body: { body: 5 },
    });
    expect(error.operationId).toBe("issues/create-comment");
    expect(error.problems).toEqual(["body/body must be string"]);
    expect(error.message).toMatch(
      /^cfa\/testkit: POST \/repos\/o\/r\/issues\/1\/comments \(issues\/create-comment\)/,
    );
  });

  it("rejects a route no operation in the subset describes", () => {
    const error = rejection({ method: "GET", url: "/repos/o/r/nonexistent" });
    expect(error.operationId).toBeUndefined();
    expect(error.problems).toEqual(["no operation in the subset matches this path"]);
  });

  it("rejects a known path with a method it does not have", () => {
    const error = rejection({
      method: "PUT",
      url: "/repos/o/r/issues/1/comments",
      body: { body: "x" },
    });
    expect(error.problems[0]).toMatch(
      /no PUT operation on \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/comments/,
    );
  });

  it("rejects a missing required body and a non-integer path parameter", () => {
    const error = rejection({ method: "POST", url: "/repos/o/r/issues/abc/comments" });
    expect(error.problems).toEqual([
      "path parameter issue_number must be integer",
      "missing required request body",
    ]);
  });

  it("rejects body fields the operation does not declare: REST pulls/update cannot leave draft", () => {
    const error = rejection({ method: "PATCH", url: "/repos/o/r/pulls/2", body: { draft: false } });
    expect(error.operationId).toBe("pulls/update");
    expect(error.problems).toEqual([
      "body field draft is not declared by the operation (GitHub ignores it)",
    ]);
    const lenient = createGitHubValidator({ allowUndeclaredFields: true });
    expect(
      lenient.validate({ method: "PATCH", url: "/repos/o/r/pulls/2", body: { draft: false } })
        .operationId,
    ).toBe("pulls/update");
  });

  it("accepts the GraphQL mutation that marks a pull request ready for review", () => {
    const query =
      "mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { clientMutationId } }";
    expect(
      validator.validate({
        method: "POST",
        url: "https://api.github.com/graphql",
        body: { query, variables: { id: "PR_1" } },
      }).operationId,
    ).toBe("graphql");
    expect(
      rejection({ method: "POST", url: "/graphql", body: { variables: {} } }).problems,
    ).toEqual(["body must have required property 'query'"]);
  });

  it("decodes percent-encoded refs and paths the way Octokit sends them", () => {
    expect(
      validator.validate({ method: "GET", url: "/repos/o/r/git/ref/heads%2Fcfa%2F7" }).params,
    ).toMatchObject({
      ref: "heads/cfa/7",
    });
    expect(
      validator.validate({ method: "DELETE", url: "/repos/o/r/git/refs/heads/cfa/7-t1" }),
    ).toMatchObject({
      operationId: "git/delete-ref",
      params: { ref: "heads/cfa/7-t1" },
    });
    expect(
      validator.validate({
        method: "GET",
        url: "/repos/o/r/contents/.cfa%2Fjobs%2F7%2Fstate.json?ref=cfa%2F7",
      }),
    ).toMatchObject({
      operationId: "repos/get-content",
      params: { path: ".cfa/jobs/7/state.json" },
      query: { ref: "cfa/7" },
    });
  });

  it("prefers the literal route over a parameter: issues/comments/{id} is not issue number 'comments'", () => {
    expect(
      validator.validate({
        method: "PATCH",
        url: "/repos/o/r/issues/comments/9",
        body: { body: "x" },
      }).operationId,
    ).toBe("issues/update-comment");
  });

  it("checks query parameters: enums, integers and undeclared names", () => {
    expect(
      validator.validate({
        method: "GET",
        url: "/repos/o/r/issues?state=open&labels=cfa&per_page=100",
      }).operationId,
    ).toBe("issues/list-for-repo");
    expect(rejection({ method: "GET", url: "/repos/o/r/issues?state=weird" }).problems).toEqual([
      'query parameter state must be equal to one of the allowed values ("open", "closed", "all")',
    ]);
    expect(
      rejection({ method: "GET", url: "/repos/o/r/issues/1/comments?per_page=lots&pagee=2" })
        .problems,
    ).toEqual([
      "query parameter per_page must be integer",
      "query parameter pagee is not declared by the operation",
    ]);
  });

  it("rejects a body on an operation that takes none, and a malformed enum value", () => {
    expect(
      rejection({ method: "POST", url: "/repos/o/r/actions/runs/5/cancel", body: { force: true } })
        .problems[0],
    ).toMatch(/takes no request body/);
    expect(
      rejection({
        method: "POST",
        url: "/repos/o/r/issues/1/reactions",
        body: { content: "thumbsup" },
      }).problems[0],
    ).toMatch(/^body\/content must be equal to one of the allowed values/);
  });

  it("checks GitHub's repo.nwo format", () => {
    const base = { title: "t", head: "cfa/1", base: "main" };
    expect(
      validator.validate({
        method: "POST",
        url: "/repos/o/r/pulls",
        body: { ...base, head_repo: "o/r" },
      }).operationId,
    ).toBe("pulls/create");
    expect(
      rejection({
        method: "POST",
        url: "/repos/o/r/pulls",
        body: { ...base, head_repo: "no-slash" },
      }).problems,
    ).toEqual(['body/head_repo must match format "repo.nwo"']);
  });

  it("rejects a host other than api.github.com", () => {
    expect(rejection({ method: "GET", url: "https://example.com/repos/o/r" }).problems[0]).toMatch(
      /is not https:\/\/api.github.com/,
    );
  });
});
