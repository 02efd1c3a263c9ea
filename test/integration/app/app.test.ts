import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { configErrorComment } from "../../../src/comments/config-error-comment.js";
import { parseConfig } from "../../../src/config/index.js";
import { PERMISSIONS } from "../../../src/ports/forge.js";
import { examplePayload, useGitHubMocks } from "../../support/github/index.js";
import { createQueuedTestApp } from "../../support/github/queued-test-app.js";
import {
  R,
  mockActiveRuns,
  mockCancel,
  mockCommentReaction,
  mockComments,
  mockConfig,
  mockCreateComment,
  mockDispatch,
  mockIssueReaction,
  mockPermission,
} from "../../support/github/github-app-mocks.js";

const TOKEN_CALL = "apps/create-installation-access-token";
/** mockConfig(null): Probot's loader reads the repository's .github/cfa.yml, then the org's. */
const NO_CONFIG = ["repos/get-content", "repos/get-content"];
/** What the app does first with a command or a label: the config, then who is asking. */
const SCREENED = [...NO_CONFIG, "repos/get-collaborator-permission-level"];
/** Every operation the tests above saw the app call. */
const CALLED = new Set<string>();

const labelled = (login: string, issue = 7) =>
  examplePayload("issues", "labeled", {
    label: { name: "cfa" },
    issue: { number: issue, labels: [{ name: "cfa" }], state: "open" },
    sender: { login, type: "User" },
  });

const commented = (body: string, login: string, id = 901) =>
  examplePayload("issue_comment", "created", {
    issue: { number: 7, labels: [{ name: "cfa" }], state: "open" },
    comment: { id, body, user: { login, type: "User" } },
    sender: { login, type: "User" },
  });

const reviewed = (state: "approved" | "commented", login: string, type: "User" | "Bot" = "User") =>
  examplePayload("pull_request_review", "submitted", {
    review: { id: 501, state, user: { login, type }, commit_id: "f".repeat(40) },
    pull_request: { number: 12, head: { ref: "cfa/7" } },
    sender: { login, type },
  });

// receive() resolves once the queued work is done; the app answered GitHub before it.
const app = () => createQueuedTestApp({ botLogin: "cfa-bot[bot]" });
/** The app with no .github/cfa.yml anywhere, asked about `login` who has `permission`: SCREENED. */
const screenedApp = async (login: string, permission: string) => {
  const probot = await app();
  mockConfig(null);
  mockPermission(login, permission);
  return probot;
};

describe("the app's handlers, on GitHub's example payloads, every call mocked and validated", () => {
  const github = useGitHubMocks();
  // Registered after useGitHubMocks(), so it runs before the mocks are reset (hooks stack).
  afterEach(() => {
    for (const call of github.recorder().calls()) {
      if (call.operationId !== undefined) CALLED.add(call.operationId);
    }
  });
  const operations = () => github.operations().filter((id) => id !== TOKEN_CALL);
  const dispatches = () => operations().filter((o) => o === "actions/create-workflow-dispatch");
  /** `payload` from @wes in two deliveries, the second a redelivery under another id. */
  const receivedTwice = async (
    probot: Awaited<ReturnType<typeof app>>,
    event: "issue_comment" | "pull_request_review",
    payload: object,
  ) => {
    await probot.receive(event, payload, { id: "d-1" });
    // The second delivery reads the configuration and the permission again, then stops.
    mockConfig(null);
    mockPermission("wes", "write");
    await probot.receive(event, payload, { id: "d-2" });
  };

  it("a person with write access labels an issue: the worker dispatched, then 👀 on the issue", async () => {
    const probot = await screenedApp("wes", "write");
    mockIssueReaction(7);
    mockDispatch(7);

    await probot.receive("issues", labelled("wes"));

    expect(operations()).toEqual([
      ...SCREENED,
      "actions/create-workflow-dispatch",
      "reactions/create-for-issue",
    ]);
  });

  it.each(PERMISSIONS.filter((p) => !["admin", "maintain", "write"].includes(p)))(
    "a person with %s access who labels an issue gets one short comment and nothing starts",
    async (permission) => {
      const probot = await screenedApp("tri", permission);
      mockComments(7, []);
      mockCreateComment(
        7,
        new RegExp(
          `^@tri: only people with write access.*you have ${permission}\\. Nothing was started\\.`,
        ),
      );

      await probot.receive("issues", labelled("tri"));

      expect(operations()).toEqual([...SCREENED, "issues/list-comments", "issues/create-comment"]);
    },
  );

  it("the same delivery twice takes one effect", async () => {
    const probot = await screenedApp("wes", "write");
    mockIssueReaction(7);
    mockDispatch(7);

    await probot.receive("issues", labelled("wes"), { id: "d-1" });
    await probot.receive("issues", labelled("wes"), { id: "d-1" });

    expect(dispatches()).toHaveLength(1);
  });

  it("the same comment in two deliveries (created, then a redelivery with another id) takes one effect", async () => {
    const probot = await screenedApp("wes", "write");
    mockCommentReaction(901);
    mockDispatch(7);
    await receivedTwice(probot, "issue_comment", commented("/intervene use SQLite", "wes"));

    expect(dispatches()).toHaveLength(1);
    expect(operations().filter((o) => o === "reactions/create-for-issue-comment")).toHaveLength(1);
  });

  it("/withdraw by a maintainer cancels only that job's unfinished runs — queued, waiting, pending, requested, in progress — cues the worker, then 👀", async () => {
    const probot = await screenedApp("max", "maintain");
    mockCommentReaction(901);
    mockActiveRuns([
      { id: 71, title: "cfa job #7" },
      { id: 72, title: "cfa job #70" },
      { id: 73, title: "cfa job #7" },
      { id: 74, title: "cfa job #7", status: "queued" },
      { id: 75, title: "cfa job #7", status: "waiting" },
      { id: 76, title: "cfa job #7", status: "completed" },
      { id: 77, title: "cfa job #7", status: "pending" },
      { id: 78, title: "cfa job #7", status: "requested" },
    ]);
    mockCancel(71);
    mockCancel(73, 409); // finished meanwhile: not an error
    for (const id of [74, 75, 77, 78]) mockCancel(id);
    mockDispatch(7);

    await probot.receive("issue_comment", commented("/withdraw wrong repo", "max"));

    expect(operations()).toEqual([
      ...SCREENED,
      "actions/list-workflow-runs",
      ...Array.from({ length: 6 }, () => "actions/cancel-workflow-run"),
      "actions/create-workflow-dispatch",
      "reactions/create-for-issue-comment",
    ]);
  });

  it("/withdraw by someone with read access: the app replies once and starts no run", async () => {
    const probot = await screenedApp("rea", "read");
    mockComments(7, []);
    mockCreateComment(
      7,
      /^@rea: only people with write access.*can use `\/withdraw` on a cfa job; you have read\. Nothing was changed\./,
    );

    await probot.receive("issue_comment", commented("/withdraw", "rea"));

    expect(operations()).toEqual([...SCREENED, "issues/list-comments", "issues/create-comment"]);
  });

  it("an approval on the job's pull request by someone with write access is cued after a permission call", async () => {
    const probot = await screenedApp("wes", "write");
    mockDispatch(7);

    await probot.receive("pull_request_review", reviewed("approved", "wes"));

    expect(operations()).toEqual([...SCREENED, "actions/create-workflow-dispatch"]);
  });

  it("the same review in two deliveries cues the worker once", async () => {
    const probot = await screenedApp("wes", "write");
    mockDispatch(7);
    await receivedTwice(probot, "pull_request_review", reviewed("approved", "wes"));

    expect(dispatches()).toHaveLength(1);
  });

  it("ordinary comments and comment-only reviews cost no API call", async () => {
    const probot = await app();

    await probot.receive("issue_comment", commented("Looks good to me", "wes"));
    await probot.receive("pull_request_review", reviewed("commented", "wes"));
    await probot.receive("issues", examplePayload("issues", "opened", { issue: { labels: [] } }));

    expect(operations()).toEqual([]);
  });

  it("an issue opened with another label, and a bot's command, cost only the config read", async () => {
    const probot = await app();
    mockConfig(null);
    await probot.receive("issues", examplePayload("issues", "opened"));
    mockConfig(null);
    await probot.receive(
      "issue_comment",
      examplePayload("issue_comment", "created", {
        issue: { number: 7, labels: [{ name: "cfa" }] },
        comment: { body: "/withdraw", user: { login: "cfa-bot[bot]", type: "Bot" } },
        sender: { login: "cfa-bot[bot]", type: "Bot" },
      }),
    );

    expect(operations()).toEqual([...NO_CONFIG, ...NO_CONFIG]);
  });

  it("the configured workflow and label are used", async () => {
    const probot = await app();
    mockConfig("label: robot\nworkflow: agents.yml\n");
    mockPermission("wes", "admin");
    mockIssueReaction(7);
    mockDispatch(7, "agents.yml");

    await probot.receive(
      "issues",
      examplePayload("issues", "labeled", {
        label: { name: "robot" },
        issue: { number: 7, labels: [{ name: "robot" }] },
        sender: { login: "wes", type: "User" },
      }),
    );

    expect(operations()).toContain("actions/create-workflow-dispatch");
  });

  it("a bad config gets one comment naming the field, and the job does not start", async () => {
    const probot = await app();
    const bad = "fanOut: lots\n";
    const errors = parseConfig(bad);
    if (errors.ok) throw new Error("expected a bad config");
    const { body } = configErrorComment(7, errors.errors);
    mockConfig(bad);
    mockComments(7, []);
    mockCreateComment(7, /cannot start: `.github\/cfa.yml` is not valid[\s\S]*fanOut/);

    await probot.receive("issues", labelled("wes"), { id: "d-1" });

    // Another delivery with the same bad file finds that comment and posts nothing.
    mockConfig(bad);
    mockComments(7, [{ body }]);
    await probot.receive("issues", labelled("wes"), { id: "d-2" });

    expect(operations()).toEqual([
      "repos/get-content",
      "issues/list-comments",
      "issues/create-comment",
      "repos/get-content",
      "issues/list-comments",
    ]);
    expect(github.recorder().bodies("issues/create-comment")).toEqual([{ body }]);
  });

  it("a config that is not YAML gets the comment too", async () => {
    const probot = await app();
    mockConfig("label: [unclosed\n");
    mockComments(7, []);
    mockCreateComment(7, /is not valid[\s\S]*invalid YAML/);

    await probot.receive("issues", labelled("wes"));
  });

  it("a config that uses _extends is refused: the worker would read only this file", async () => {
    const probot = await app();
    const { nockGitHub } = await import("../../support/github/index.js");
    mockConfig("_extends: settings\nfanOut: 2\n");
    nockGitHub()
      .get("/repos/Codertocat/settings/contents/.github%2Fcfa.yml")
      .reply(200, "label: robots\n", { "content-type": "text/plain; charset=utf-8" });
    mockComments(7, []);
    mockCreateComment(7, /_extends is not supported/);

    await probot.receive("issues", labelled("wes"));
  });

  it("a failed dispatch is logged, gets no 👀, and is not remembered: a redelivery tries again", async () => {
    const probot = await screenedApp("wes", "write");
    // The dispatch fails: the workflow file does not exist.
    const { nockGitHub } = await import("../../support/github/index.js");
    nockGitHub()
      .post(`${R}/actions/workflows/cfa.yml/dispatches`)
      .reply(404, { message: "Not Found" });

    // GitHub was answered before the work ran, so the delivery itself succeeds.
    await probot.receive("issues", labelled("wes"), { id: "d-1" });
    expect(
      probot.logs.some(
        (l) => l.level === "error" && /dispatch of job #7 for delivery d-1 failed/.test(l.message),
      ),
    ).toBe(true);
    expect(operations()).not.toContain("reactions/create-for-issue");

    mockConfig(null);
    mockPermission("wes", "write");
    mockDispatch(7);
    mockIssueReaction(7);
    await probot.receive("issues", labelled("wes"), { id: "d-1" });
    expect(dispatches()).toHaveLength(2);
  });

  it("a malformed payload fails the delivery at once, before any work is queued", async () => {
    const probot = await app();
    const payload = labelled("wes") as { issue: { number: unknown } };
    payload.issue.number = "seven";

    await expect(probot.receive("issues", payload)).rejects.toThrow(/missing fields the app needs/);
    expect(probot.queue.size()).toBe(0);
    expect(operations()).toEqual([]);
  });
});

// The permission each operation needs, from
// https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps
// (the collaborator permission endpoint is under "Metadata").
const NEEDS: Record<string, [permission: string, access: "read" | "write"] | "jwt"> = {
  "apps/create-installation-access-token": "jwt",
  "repos/get-content": ["contents", "read"],
  "repos/get-collaborator-permission-level": ["metadata", "read"],
  "reactions/create-for-issue": ["issues", "write"],
  "reactions/create-for-issue-comment": ["issues", "write"],
  "issues/list-comments": ["issues", "read"],
  "issues/create-comment": ["issues", "write"],
  "actions/list-workflow-runs": ["actions", "read"],
  "actions/cancel-workflow-run": ["actions", "write"],
  "actions/create-workflow-dispatch": ["actions", "write"],
};

describe("app.yml asks for what the app calls, and writes only where it writes", () => {
  it("grants every permission the calls above needed, and no write they did not", () => {
    const manifest = parse(readFileSync(new URL("../../../app.yml", import.meta.url), "utf8")) as {
      default_permissions: Record<string, string>;
    };
    expect([...CALLED].filter((op) => NEEDS[op] === undefined)).toEqual([]);
    const needed = new Map<string, string>();
    for (const op of CALLED) {
      const need = NEEDS[op];
      if (need === undefined || need === "jwt") continue;
      if (needed.get(need[0]) !== "write") needed.set(need[0], need[1]);
    }
    expect(needed.get("actions")).toBe("write");
    for (const [permission, access] of needed) {
      const granted = manifest.default_permissions[permission];
      expect(granted === "write" || granted === access, `${permission}: ${access}`).toBe(true);
    }
    for (const [permission, access] of Object.entries(manifest.default_permissions)) {
      if (access === "write") expect(needed.get(permission), permission).toBe("write");
    }
    // pull_request and pull_request_review events come only with Pull requests (read).
    expect(manifest.default_permissions["pull_requests"]).toBe("read");
  });
});
