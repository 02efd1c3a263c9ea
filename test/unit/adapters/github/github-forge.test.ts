import { describe, expect, it } from "vitest";
import { GitHubForgeError } from "../../../../src/adapters/github/index.js";
import { COMMENT_LIMIT } from "../../../../src/comments/comment-text.js";
import { expectBody, nockGitHub, useGitHubMocks } from "../../../support/github/index.js";
import {
  BOT,
  R,
  contentFile,
  issue,
  issueComment,
  notFound,
  reaction,
  repository,
  testForge,
  user,
} from "../../../support/github/github-shapes.js";

// The forge's own calls (src/adapters/github/github-forge.ts): issues, comments, reactions,
// the default branch and the config file.
const github = useGitHubMocks();

describe("GitHub forge: issues, comments and reactions", () => {
  it("reads an issue and maps it onto the port", async () => {
    nockGitHub().get(`${R}/issues/7`).reply(200, issue(7));
    const forge = testForge();

    await expect(forge.getIssue(7)).resolves.toEqual({
      number: 7,
      title: "Found a bug",
      body: "I'm having a problem with this.",
      author: { login: "octocat", type: "User" },
      labels: ["cfa"],
      state: "open",
      url: "https://github.com/octo-org/hello-world/issues/7",
    });
    expect(forge.apiCalls()).toBe(1);
  });

  it("maps a deleted author (user: null) to ghost and a null body to empty text", async () => {
    nockGitHub()
      .get(`${R}/issues/8`)
      .reply(200, issue(8, { user: null, body: null, labels: ["plain-string-label"] }));

    const read = await testForge().getIssue(8);

    expect(read.author).toEqual({ login: "ghost", type: "User" });
    expect(read.body).toBe("");
    expect(read.labels).toEqual(["plain-string-label"]);
  });

  it("lists every comment across pages, one API call per page", async () => {
    const next = `<https://api.github.com${R}/issues/1/comments?per_page=100&page=2>; rel="next", <https://api.github.com${R}/issues/1/comments?per_page=100&page=2>; rel="last"`;
    nockGitHub()
      .get(`${R}/issues/1/comments`)
      .query({ per_page: "100" })
      .reply(200, [issueComment(1, "status"), issueComment(2, "hi", user("octocat"))], {
        Link: next,
      })
      .get(`${R}/issues/1/comments`)
      .query({ per_page: "100", page: "2" })
      .reply(200, [issueComment(3, "/withdraw", user("some-bot[bot]", "Bot"))]);
    const forge = testForge();

    const comments = await forge.listComments(1);

    expect(comments.map((c) => [c.id, c.author.login, c.author.type, c.body])).toEqual([
      [1, BOT, "Bot", "status"],
      [2, "octocat", "User", "hi"],
      [3, "some-bot[bot]", "Bot", "/withdraw"],
    ]);
    expect(comments[0]).toMatchObject({
      createdAt: "2011-04-14T16:00:49Z",
      url: "https://github.com/octo-org/hello-world/issues/1#issuecomment-1",
    });
    expect(forge.apiCalls()).toBe(2);
    expect(forge.apiCalls()).toBe(github.recorder().calls().length);
  });

  it("creates a comment and returns it as the port's Comment", async () => {
    nockGitHub()
      .post(`${R}/issues/1/comments`, expectBody({ body: "hello" }))
      .reply(201, issueComment(99, "hello"));

    const created = await testForge().createComment(1, "hello");

    expect(created).toMatchObject({ id: 99, body: "hello", author: { login: BOT, type: "Bot" } });
  });

  it("trims a comment over GitHub's limit instead of letting GitHub reject it", async () => {
    const block = '\n\n<!-- cfa {"v":1,"job":1,"kind":"status"} -->';
    const long = "x".repeat(70_000) + block;
    nockGitHub()
      .post(`${R}/issues/1/comments`)
      .reply(201, (_uri, body) => issueComment(5, (body as { body: string }).body));

    const created = await testForge().createComment(1, long);

    const [sent] = github.recorder().bodies("issues/create-comment") as { body: string }[];
    expect(sent?.body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(sent?.body.length).toBeLessThan(65_536);
    // The hidden block survives, so the bot still recognises its own comment.
    expect(sent?.body.endsWith(block)).toBe(true);
    expect(sent?.body).toMatch(/trimmed \d+ characters/);
    expect(created.body).toBe(sent?.body);
  });

  it("edits a comment in place, trimming it too", async () => {
    nockGitHub()
      .patch(
        `${R}/issues/comments/42`,
        expectBody({ body: (v) => typeof v === "string" && v.length <= COMMENT_LIMIT }),
      )
      .reply(200, issueComment(42, "edited"));

    await testForge().updateComment(42, "y".repeat(80_000));

    expect(github.operations()).toEqual(["issues/update-comment"]);
  });

  it("reacts on a comment and on an issue", async () => {
    nockGitHub()
      .post(`${R}/issues/comments/42/reactions`, expectBody({ content: "eyes" }))
      .reply(201, reaction("eyes"))
      // 200: the bot had already reacted this way.
      .post(`${R}/issues/3/reactions`, expectBody({ content: "rocket" }))
      .reply(200, reaction("rocket"));
    const forge = testForge();

    await forge.react({ comment: 42 }, "eyes");
    await forge.react({ issue: 3 }, "rocket");

    expect(github.operations()).toEqual([
      "reactions/create-for-issue-comment",
      "reactions/create-for-issue",
    ]);
    expect(forge.apiCalls()).toBe(2);
  });
});

describe("GitHub forge: default branch and config", () => {
  it("reads the default branch once per adapter", async () => {
    nockGitHub().get(R).reply(200, repository("trunk"));
    const forge = testForge();

    await expect(forge.defaultBranch()).resolves.toBe("trunk");
    await expect(forge.defaultBranch()).resolves.toBe("trunk");

    expect(forge.apiCalls()).toBe(1);
    expect(github.operations()).toEqual(["repos/get"]);
  });

  it("reads .github/cfa.yml from the default branch, decoding base64", async () => {
    const yaml = "label: cfa\ncaps:\n  turns: 200\n# ünïcödé survives\n";
    nockGitHub()
      .get(`${R}/contents/.github%2Fcfa.yml`)
      .reply(200, contentFile(".github/cfa.yml", yaml));

    await expect(testForge().readConfig()).resolves.toBe(yaml);
    // No `ref`: GitHub reads the default branch, saving a repos.get call.
    expect(github.recorder().requests()[0]?.query).toEqual({});
  });

  it("returns null when the repository has no config", async () => {
    nockGitHub().get(`${R}/contents/.github%2Fcfa.yml`).reply(404, notFound());

    await expect(testForge().readConfig()).resolves.toBeNull();
  });

  it("refuses a directory where the config file should be", async () => {
    nockGitHub()
      .get(`${R}/contents/.github%2Fcfa.yml`)
      .reply(200, [contentFile(".github/cfa.yml/a.yml", "x")]);

    const failure = await testForge()
      .readConfig()
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(GitHubForgeError);
    expect((failure as Error).message).toMatch(/^cfa\/github: \.github\/cfa\.yml is not a file/);
  });
});
