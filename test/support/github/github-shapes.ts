// Minimal GitHub REST responses in GitHub's real shapes (field names and nesting from the
// REST docs' examples and @octokit/openapi-types, trimmed of fields nobody reads), plus a
// forge wired to an Octokit that nock intercepts.

import { Octokit } from "@octokit/rest";
import {
  createGitHubForge,
  type GitHubForge,
  type GitHubForgeOptions,
} from "../../../src/adapters/github/index.js";
import type { Logger } from "../../../src/ports/logger.js";

export const OWNER = "octo-org";
export const REPO = "hello-world";
export const BOT = "cfa-bot[bot]";
export const TOKEN = "ghs_16C7e42F292c6912E7710c838347Ae178B4a";
export const API = "https://api.github.com";
export const R = `/repos/${OWNER}/${REPO}`;
export const HEAD_SHA = "6dcb09b5b57875f334f61aebed695e2e4193db5e";
export const OTHER_SHA = "ecdd80bb57125d7ba9641ffaa4d7d2c19d3f3091";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export function testOctokit(): Octokit {
  return new Octokit({ auth: TOKEN, log: quiet });
}

export interface LogLine {
  level: keyof Logger;
  message: string;
  fields: Record<string, unknown> | undefined;
}

export function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: keyof Logger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, message, fields });
    };
  return {
    lines,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

/** The forge of octo-org/hello-world through testOctokit(), with no clone unless `repoDir` names one. */
export function testForge(options: Partial<GitHubForgeOptions> = {}): GitHubForge {
  return createGitHubForge({
    octokit: testOctokit(),
    owner: OWNER,
    repo: REPO,
    botLogin: BOT,
    repoDir: "/nonexistent",
    ...options,
  });
}

export function user(login: string, type: "User" | "Bot" | "Organization" = "User", id = 1) {
  return {
    login,
    id,
    node_id: "MDQ6VXNlcjE=",
    avatar_url: `https://github.com/images/error/${login}.gif`,
    gravatar_id: "",
    url: `https://api.github.com/users/${login}`,
    html_url: `https://github.com/${login}`,
    type,
    site_admin: false,
  };
}

export function issue(number: number, overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    node_id: "MDU6SXNzdWUx",
    url: `${API}${R}/issues/${number}`,
    repository_url: `${API}${R}`,
    html_url: `https://github.com/${OWNER}/${REPO}/issues/${number}`,
    number,
    state: "open",
    title: "Found a bug",
    body: "I'm having a problem with this.",
    user: user("octocat"),
    labels: [
      {
        id: 208045946,
        node_id: "MDU6TGFiZWwyMDgwNDU5NDY=",
        url: `${API}${R}/labels/cfa`,
        name: "cfa",
        description: "Run cfa-bot on this issue",
        color: "f29513",
        default: false,
      },
    ],
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    comments: 0,
    closed_at: null,
    created_at: "2011-04-22T13:33:48Z",
    updated_at: "2011-04-22T13:33:48Z",
    author_association: "COLLABORATOR",
    state_reason: null,
    ...overrides,
  };
}

export function issueComment(id: number, body: string, by = user(BOT, "Bot", 41898282)) {
  return {
    id,
    node_id: "MDEyOklzc3VlQ29tbWVudDE=",
    url: `${API}${R}/issues/comments/${id}`,
    html_url: `https://github.com/${OWNER}/${REPO}/issues/1#issuecomment-${id}`,
    body,
    user: by,
    created_at: "2011-04-14T16:00:49Z",
    updated_at: "2011-04-14T16:00:49Z",
    issue_url: `${API}${R}/issues/1`,
    author_association: by.type === "Bot" ? "NONE" : "COLLABORATOR",
  };
}

export function reaction(content: string) {
  return {
    id: 1,
    node_id: "MDg6UmVhY3Rpb24x",
    user: user(BOT, "Bot", 41898282),
    content,
    created_at: "2016-05-20T20:09:31Z",
  };
}

export function repository(defaultBranch = "main") {
  return {
    id: 1296269,
    node_id: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5",
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    owner: user(OWNER, "Organization"),
    private: false,
    html_url: `https://github.com/${OWNER}/${REPO}`,
    default_branch: defaultBranch,
    visibility: "public",
  };
}

export function collaboratorPermission(permission: string, roleName: string, login = "octocat") {
  return { permission, role_name: roleName, user: { ...user(login), role_name: roleName } };
}

function branchRef(ref: string, sha: string) {
  return {
    label: `${OWNER}:${ref}`,
    ref,
    sha,
    user: user(OWNER, "Organization"),
    repo: repository(),
  };
}

export function pullRequest(
  number: number,
  overrides: { head?: string; state?: string; draft?: boolean; node_id?: string } = {},
) {
  const head = overrides.head ?? "cfa/1";
  return {
    url: `${API}${R}/pulls/${number}`,
    id: 1,
    node_id: overrides.node_id ?? "MDExOlB1bGxSZXF1ZXN0MQ==",
    html_url: `https://github.com/${OWNER}/${REPO}/pull/${number}`,
    number,
    state: overrides.state ?? "open",
    locked: false,
    title: "cfa: #1",
    user: user(BOT, "Bot", 41898282),
    body: "Job #1",
    labels: [],
    created_at: "2011-01-26T19:01:12Z",
    updated_at: "2011-01-26T19:01:12Z",
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    draft: overrides.draft ?? true,
    head: branchRef(head, HEAD_SHA),
    base: branchRef("main", OTHER_SHA),
    author_association: "NONE",
  };
}

export function review(
  id: number,
  state: string,
  overrides: { body?: string | null; commit_id?: string | null; login?: string } = {},
) {
  return {
    id,
    node_id: "MDE3OlB1bGxSZXF1ZXN0UmV2aWV3ODA=",
    user: user(overrides.login ?? "octocat"),
    body: overrides.body === undefined ? "Here is the body for the review." : overrides.body,
    state,
    html_url: `https://github.com/${OWNER}/${REPO}/pull/12#pullrequestreview-${id}`,
    pull_request_url: `${API}${R}/pulls/12`,
    _links: {
      html: { href: `https://github.com/${OWNER}/${REPO}/pull/12#pullrequestreview-${id}` },
      pull_request: { href: `${API}${R}/pulls/12` },
    },
    ...(state === "PENDING" ? {} : { submitted_at: "2019-11-17T17:43:43Z" }),
    commit_id: overrides.commit_id === undefined ? HEAD_SHA : overrides.commit_id,
    author_association: "COLLABORATOR",
  };
}

export function reviewComment(
  id: number,
  reviewId: number,
  fields: { path: string; body: string; line?: number; original_line?: number },
) {
  return {
    url: `${API}${R}/pulls/comments/${id}`,
    pull_request_review_id: reviewId,
    id,
    node_id: "MDI0OlB1bGxSZXF1ZXN0UmV2aWV3Q29tbWVudDEw",
    diff_hunk: "@@ -16,33 +16,40 @@ public class Connection : IConnection...",
    path: fields.path,
    position: fields.line === undefined ? null : 1,
    original_position: 4,
    commit_id: HEAD_SHA,
    original_commit_id: "9c48853fa3dc5c1c3d6f1f1cd1f2743e72652840",
    user: user("octocat"),
    body: fields.body,
    created_at: "2011-04-14T16:00:49Z",
    updated_at: "2011-04-14T16:00:49Z",
    html_url: `https://github.com/${OWNER}/${REPO}/pull/1#discussion-diff-${id}`,
    pull_request_url: `${API}${R}/pulls/1`,
    author_association: "COLLABORATOR",
    _links: {
      self: { href: `${API}${R}/pulls/comments/${id}` },
      html: { href: `https://github.com/${OWNER}/${REPO}/pull/1#discussion-diff-${id}` },
      pull_request: { href: `${API}${R}/pulls/1` },
    },
    side: "RIGHT",
    ...(fields.line === undefined ? {} : { line: fields.line }),
    ...(fields.original_line === undefined ? {} : { original_line: fields.original_line }),
  };
}

export function checkRun(
  id: number,
  fields: { name: string; head_sha: string; status?: string; conclusion?: string | null },
) {
  return {
    id,
    head_sha: fields.head_sha,
    node_id: "MDg6Q2hlY2tSdW40",
    external_id: "",
    url: `${API}${R}/check-runs/${id}`,
    html_url: `https://github.com/${OWNER}/${REPO}/runs/${id}`,
    details_url: "https://example.com",
    status: fields.status ?? "in_progress",
    conclusion: fields.conclusion ?? null,
    started_at: "2018-05-04T01:14:52Z",
    completed_at: null,
    output: {
      title: fields.name,
      summary: "",
      text: null,
      annotations_count: 0,
      annotations_url: `${API}${R}/check-runs/${id}/annotations`,
    },
    name: fields.name,
    check_suite: { id: 5 },
    app: { id: 1, slug: "cfa-bot", node_id: "MDExOkludGVncmF0aW9uMQ==", name: "cfa-bot" },
    pull_requests: [],
  };
}

export function contentFile(path: string, text: string) {
  const name = path.split("/").pop() ?? path;
  return {
    type: "file",
    encoding: "base64",
    size: Buffer.byteLength(text),
    name,
    path,
    // GitHub wraps the base64 at 60 columns.
    content:
      (
        Buffer.from(text)
          .toString("base64")
          .match(/.{1,60}/g) ?? []
      ).join("\n") + "\n",
    sha: "3d21ec53a331a6f037a91c368710b99387d012c1",
    url: `${API}${R}/contents/${path}?ref=main`,
    git_url: `${API}${R}/git/blobs/3d21ec53a331a6f037a91c368710b99387d012c1`,
    html_url: `https://github.com/${OWNER}/${REPO}/blob/main/${path}`,
    download_url: `https://raw.githubusercontent.com/${OWNER}/${REPO}/main/${path}`,
    _links: {
      git: `${API}${R}/git/blobs/3d21ec53a331a6f037a91c368710b99387d012c1`,
      self: `${API}${R}/contents/${path}?ref=main`,
      html: `https://github.com/${OWNER}/${REPO}/blob/main/${path}`,
    },
  };
}

/** Job 1's draft pull request, as the engine asks the forge for it. */
export const JOB_PULL = {
  head: "cfa/1",
  base: "main",
  title: "cfa: #1",
  body: "Job #1",
  draft: true,
} as const;

/** GitHub's 422 for a second pull request from the job's branch. */
export function pullAlreadyExists() {
  return {
    message: "Validation Failed",
    errors: [
      {
        resource: "PullRequest",
        code: "custom",
        message: "A pull request already exists for octo-org:cfa/1.",
      },
    ],
  };
}

export function notFound(documentation = "https://docs.github.com/rest") {
  return { message: "Not Found", documentation_url: documentation, status: "404" };
}
