// Anyone can write the bot's hidden block into a comment. A copy by another app, another bot or a
// person must not make the bot believe its failure, config-error or refusal comment is already
// posted. Each case plants the exact block the bot is about to post, under a spoofing author, and
// checks the bot posts anyway; the bot's own copy (in any letter case: GitHub logins are
// case-insensitive) does suppress it. Then the same through the app's delivery path over nock,
// including how the app learns its own login (GET /app).

import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { configErrorComment, isSameConfigError } from "../../src/comments/config-error-comment.js";
import { postOnce } from "../../src/github-events/post-once.js";
import {
  isSameStartRefusal,
  startRefusalComment,
} from "../../src/comments/start-refusal-comment.js";
import type { HiddenBlock } from "../../src/comments/hidden-block.js";
import type { PostedComment } from "../../src/github-events/cue-effects.js";
import type { Actor } from "../../src/ports/forge.js";
import { failureComment, isSameFailure } from "../../src/comments/failure-comment.js";
import { examplePayload, nockGitHub, useGitHubMocks } from "../support/github/index.js";
import { createQueuedTestApp } from "../support/github/queued-test-app.js";
import { mockComments, mockConfig, mockCreateComment } from "../support/github/github-app-mocks.js";
import { cases } from "../support/adversarial/count.js";

const OWN = "cfa-bot[bot]";
const config = parseConfig("fanOut: lots\n");
if (config.ok) throw new Error("expected a bad config");
const CONFIG_ERROR = configErrorComment(7, config.errors);

const COMMENTS: readonly [string, string, (b: HiddenBlock) => boolean][] = [
  ["config error", CONFIG_ERROR.body, isSameConfigError(CONFIG_ERROR.digest)],
  [
    "start refusal",
    startRefusalComment({ job: 7, login: "eve", permission: "read", delivery: "d-9" }),
    isSameStartRefusal("d-9"),
  ],
  [
    "worker failure",
    failureComment({ job: 7, reason: "boom", runUrl: null, runKey: "42.1" }),
    isSameFailure("42.1"),
  ],
];

const SPOOFERS: readonly [string, Actor, boolean][] = [
  ["another app", { login: "other-app[bot]", type: "Bot" }, false],
  ["a bot that allowBots would admit", { login: "renovate[bot]", type: "Bot" }, false],
  ["github-actions when the bot is the app", { login: "github-actions[bot]", type: "Bot" }, false],
  ["a person quoting the comment", { login: "mallory", type: "User" }, false],
  ["a person named like the bot", { login: "cfa-bot", type: "User" }, false],
  ["a user account spelled like the bot", { login: OWN, type: "User" }, false],
  ["an organization", { login: "cfa-bot", type: "Organization" }, false],
  ["a longer bot login", { login: "cfa-bot-evil[bot]", type: "Bot" }, false],
  ["the bot itself", { login: OWN, type: "Bot" }, true],
  ["the bot itself, in capitals", { login: "CFA-Bot[bot]", type: "Bot" }, true],
];

function github(existing: PostedComment[]) {
  const created: string[] = [];
  return {
    created,
    listComments: () => Promise.resolve(existing),
    createComment: (_issue: number, body: string) => {
      created.push(body);
      return Promise.resolve();
    },
  };
}

const TABLE = COMMENTS.flatMap(([what, body, same]) =>
  SPOOFERS.map(([who, author, own]) => [`${what} by ${who}`, body, same, author, own] as const),
);

describe(cases("spoofed hidden blocks", TABLE.length), () => {
  it.each(TABLE)("%s", async (_name, body, same, author, own) => {
    const gh = github([{ author, body }]);
    const posted = await postOnce(gh, 7, body, same, [OWN]);
    expect(posted).toBe(!own);
    expect(gh.created).toEqual(own ? [] : [body]);
  });
});

describe("the app trusts only its own login, learnt from GitHub", () => {
  const mocks = useGitHubMocks();
  const labelled = () =>
    examplePayload("issues", "labeled", {
      label: { name: "cfa" },
      issue: { number: 7, labels: [{ name: "cfa" }], state: "open" },
      sender: { login: "wes", type: "User" },
    });
  const operations = () =>
    mocks.operations().filter((id) => id !== "apps/create-installation-access-token");

  it("a config-error block spoofed by another app does not suppress the comment", async () => {
    // The server's own delivery path (receiver, queue, Probot's clients), over nock.
    const probot = await createQueuedTestApp();
    nockGitHub().get("/app").reply(200, { id: 1, slug: "cfa-bot", name: "cfa-bot" });
    mockConfig("fanOut: lots\n");
    mockComments(7, [{ body: CONFIG_ERROR.body, login: "other-app[bot]" }]);
    mockCreateComment(7, /cannot start: `.github\/cfa.yml` is not valid/);

    await probot.receive("issues", labelled(), { id: "d-1" });

    expect(operations()).toEqual([
      "repos/get-content",
      "apps/get-authenticated",
      "issues/list-comments",
      "issues/create-comment",
    ]);
  });

  it("its own comment does suppress it, and GET /app is asked once", async () => {
    // The server's own delivery path (receiver, queue, Probot's clients), over nock.
    const probot = await createQueuedTestApp();
    nockGitHub().get("/app").reply(200, { id: 1, slug: "cfa-bot", name: "cfa-bot" });
    for (const delivery of ["d-1", "d-2"]) {
      mockConfig("fanOut: lots\n");
      mockComments(7, [{ body: CONFIG_ERROR.body, login: OWN }]);
      await probot.receive("issues", labelled(), { id: delivery });
    }
    expect(operations()).toEqual([
      "repos/get-content",
      "apps/get-authenticated",
      "issues/list-comments",
      "repos/get-content",
      "issues/list-comments",
    ]);
  });
});
