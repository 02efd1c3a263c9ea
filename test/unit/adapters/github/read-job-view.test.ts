// The wake's reads in one GraphQL query, and the conditional poll of the issue between turns,
// so a job spends few of the repository's hourly API calls. Every query is checked against
// GitHub's published schema before nock answers it; the answers follow GitHub's GraphQL shapes
// (a bot's login without "[bot]").

import { describe, expect, it } from "vitest";
import { checkGithubQuery } from "../../../support/github/github-graphql-schema.js";
import { expectBody, nockGitHub, useGitHubMocks } from "../../../support/github/index.js";
import { R, issue, issueComment, testForge, user } from "../../../support/github/github-shapes.js";

const actor = (login: string, type = "User") => ({ __typename: type, login });

function commentNode(id: number, body: string, by = actor("ana")) {
  return {
    fullDatabaseId: String(id),
    author: by,
    body,
    createdAt: "2026-11-22T10:00:00Z",
    url: `https://github.com/octo-org/hello-world/issues/1#issuecomment-${id}`,
  };
}

function reviewNode(id: number, state: string, comments: object[] = []) {
  return {
    fullDatabaseId: String(id),
    state,
    body: `review ${id}`,
    submittedAt: "2026-11-22T10:00:00Z",
    author: actor("ana"),
    commit: { oid: "a".repeat(40) },
    comments: { nodes: comments },
  };
}

function pullNode(number: number, state: string, reviews: object[] = [], draft = true) {
  return {
    id: `PR_${number}`,
    number,
    state,
    isDraft: draft,
    url: `https://github.com/octo-org/hello-world/pull/${number}`,
    headRefName: "cfa/1",
    baseRefName: "main",
    author: actor("github-actions", "Bot"),
    reviews: { pageInfo: { hasPreviousPage: false, startCursor: null }, nodes: reviews },
  };
}

function viewData(overrides: { comments?: object; pulls?: object[]; config?: object | null } = {}) {
  return {
    repository: {
      defaultBranchRef: { name: "trunk" },
      config:
        overrides.config === undefined
          ? { __typename: "Blob", text: "label: go\n", isTruncated: false, byteSize: 10 }
          : overrides.config,
      issueOrPullRequest: {
        __typename: "Issue",
        number: 1,
        title: "Greet",
        body: "please",
        state: "OPEN",
        url: "https://github.com/octo-org/hello-world/issues/1",
        author: actor("outsider"),
        labels: { nodes: [{ name: "go" }] },
        timelineItems: {
          nodes: [
            { actor: actor("mallory"), label: { name: "other" } },
            { actor: actor("maintainer"), label: { name: "go" } },
          ],
        },
        comments: overrides.comments ?? {
          totalCount: 2,
          pageInfo: { hasPreviousPage: false, startCursor: null },
          nodes: [
            commentNode(11, "/withdraw"),
            commentNode(12, "status", actor("github-actions", "Bot")),
          ],
        },
      },
      pullRequests: { nodes: overrides.pulls ?? [] },
    },
  };
}

/** Answers POST /graphql with `data` once the query passes GitHub's checks. */
function graphqlReply(data: object, seen: string[] = []) {
  return function (_uri: string, body: { query: string; variables: Record<string, unknown> }) {
    const checked = checkGithubQuery(body.query, body.variables);
    if (checked.document === undefined)
      return [200, { errors: checked.errors.map((message) => ({ message })) }];
    seen.push(body.query.match(/query (\w+)/)?.[1] ?? "?");
    return [200, { data }];
  } as never;
}

describe("GitHub forge: readJob", () => {
  const github = useGitHubMocks();

  it("reads issue, comments, who labelled it, the pull request and its reviews in one query", async () => {
    nockGitHub()
      .post("/graphql")
      .reply(
        graphqlReply(
          viewData({
            pulls: [
              pullNode(14, "CLOSED"),
              pullNode(12, "OPEN", [
                reviewNode(31, "PENDING"),
                reviewNode(32, "COMMENTED"),
                reviewNode(33, "CHANGES_REQUESTED", [
                  { path: "INTENT.md", line: null, originalLine: 3, body: "which greeting?" },
                ]),
              ]),
            ],
          }),
        ),
      );
    const forge = testForge();

    const view = await forge.readJob(1, "cfa/1");

    expect(view.issue).toMatchObject({
      number: 1,
      state: "open",
      labels: ["go"],
      author: { login: "outsider" },
    });
    // GraphQL's "github-actions" is REST's "github-actions[bot]": the bot knows its comments.
    expect(view.comments.map((c) => [c.id, c.author.login, c.author.type])).toEqual([
      [11, "ana", "User"],
      [12, "github-actions[bot]", "Bot"],
    ]);
    expect(view.labelEvents.map((e) => `${e.label}:${e.actor.login}`)).toEqual([
      "other:mallory",
      "go:maintainer",
    ]);
    // The open pull request wins over a newer closed one; a PENDING review is nobody's yet.
    expect(view.pullRequest).toMatchObject({ number: 12, state: "open", draft: true });
    expect(view.reviews.map((r) => [r.id, r.state, r.comments])).toEqual([
      [32, "COMMENTED", []],
      [33, "CHANGES_REQUESTED", [{ path: "INTENT.md", line: 3, body: "which greeting?" }]],
    ]);
    // The same query brought the config (once) and the default branch.
    expect(await forge.readConfig()).toBe("label: go\n");
    expect(await forge.defaultBranch()).toBe("trunk");
    expect(github.operations()).toEqual(["graphql"]);
    expect(forge.apiCalls()).toBe(1);
  });

  it("hands the view it just read out once more (the worker's check, then the wake), then asks again", async () => {
    const seen: string[] = [];
    nockGitHub().post("/graphql").times(2).reply(graphqlReply(viewData(), seen));
    const forge = testForge();
    await forge.readJob(1, "cfa/1");
    await forge.readJob(1, "cfa/1");
    await forge.readJob(1, "cfa/1");
    expect(seen).toEqual(["cfaJobView", "cfaJobView"]);
  });

  it("pages back through a long issue a hundred comments at a time", async () => {
    const seen: string[] = [];
    nockGitHub()
      .post("/graphql")
      .reply(
        graphqlReply(
          viewData({
            comments: {
              totalCount: 101,
              pageInfo: { hasPreviousPage: true, startCursor: "Y3Vyc29yOjE=" },
              nodes: Array.from({ length: 100 }, (_, i) => commentNode(1001 + i, `c${i + 1}`)),
            },
          }),
          seen,
        ),
      )
      .post(
        "/graphql",
        (body: { variables: { before?: string } }) => body.variables.before === "Y3Vyc29yOjE=",
      )
      .reply(
        graphqlReply(
          {
            repository: {
              issue: {
                comments: {
                  pageInfo: { hasPreviousPage: false, startCursor: "Y3Vyc29yOjA=" },
                  nodes: [commentNode(1000, "c0")],
                },
              },
            },
          },
          seen,
        ),
      );
    const forge = testForge();

    const view = await forge.readJob(1, "cfa/1");

    expect(view.comments).toHaveLength(101);
    expect(view.comments[0]?.id).toBe(1000);
    expect(view.comments.at(-1)?.id).toBe(1100);
    expect(seen).toEqual(["cfaJobView", "cfaOlderComments"]);
    expect(forge.apiCalls()).toBe(2);
  });

  it("a number that is a pull request reads as one, and a missing config is null", async () => {
    const data = viewData({ config: null });
    (data.repository as Record<string, unknown>)["issueOrPullRequest"] = {
      __typename: "PullRequest",
    };
    nockGitHub().post("/graphql").reply(graphqlReply(data));
    const forge = testForge();

    const view = await forge.readJob(7, "cfa/7");

    expect(view.issue.isPullRequest).toBe(true);
    expect(await forge.readConfig()).toBeNull();
  });
});

describe("GitHub forge: issueChanged (conditional requests)", () => {
  useGitHubMocks();
  const etag = 'W/"f00d"';
  const restIssue = (labels: string[], comments: number) =>
    issue(1, {
      labels: labels.map((name) => ({ id: 1, name, color: "f29513", default: false })),
      comments,
      title: "Greet",
      body: "please",
      user: user("outsider"),
    });

  it("a 304 is no change and costs nothing against the rate limit; the bot's own comment is no change either", async () => {
    const scope = nockGitHub();
    scope
      .post("/graphql")
      .reply(graphqlReply(viewData()))
      // The first poll has no ETag yet: a 200 that matches the view is still no news.
      .get(`${R}/issues/1`)
      .reply(200, restIssue(["go"], 2), { etag })
      .get(`${R}/issues/1`)
      .matchHeader("if-none-match", etag)
      .reply(304, "", { etag })
      .post(`${R}/issues/1/comments`, expectBody({ body: "gate" }))
      .reply(201, issueComment(13, "gate"))
      .get(`${R}/issues/1`)
      .matchHeader("if-none-match", etag)
      .reply(200, restIssue(["go"], 3), { etag: 'W/"beef"' })
      // A person removes the label: that is news.
      .get(`${R}/issues/1`)
      .matchHeader("if-none-match", 'W/"beef"')
      .reply(200, restIssue([], 3), { etag: 'W/"cafe"' });
    const forge = testForge();
    await forge.readJob(1, "cfa/1");

    expect(await forge.issueChanged(1)).toBe(false);
    expect(await forge.issueChanged(1)).toBe(false);
    await forge.createComment(1, "gate");
    expect(await forge.issueChanged(1)).toBe(false);
    expect(await forge.issueChanged(1)).toBe(true);

    expect(forge.notModified()).toBe(1);
    // The query, three 200s and the comment count; the 304 does not.
    expect(forge.apiCalls()).toBe(5);
  });
});
