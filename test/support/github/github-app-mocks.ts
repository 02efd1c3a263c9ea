// nock mocks for the app's own GitHub calls on the example payloads' repository
// (Codertocat/Hello-World, default branch master), in GitHub's response shapes.

import { withHiddenBlock } from "../../../src/comments/hidden-block.js";
import { expectBody, nockGitHub } from "./index.js";

export const OWNER = "Codertocat";
export const REPO = "Hello-World";
export const R = `/repos/${OWNER}/${REPO}`;

const user = (login: string, type = "User") => ({
  login,
  id: 1,
  type,
  site_admin: false,
  url: `https://api.github.com/users/${login}`,
});

/** `.github/cfa.yml` through Probot's loader: the repository's file, then the org default. */
export function mockConfig(yaml: string | null): void {
  const scope = nockGitHub();
  const path = `${R}/contents/.github%2Fcfa.yml`;
  if (yaml === null) {
    scope.get(path).reply(404, { message: "Not Found" });
    scope
      .get(`/repos/${OWNER}/.github/contents/.github%2Fcfa.yml`)
      .reply(404, { message: "Not Found" });
  } else {
    scope.get(path).reply(200, yaml, { "content-type": "text/plain; charset=utf-8" });
  }
}

const ROLE: Record<string, [string, string]> = {
  admin: ["admin", "admin"],
  maintain: ["write", "maintain"],
  write: ["write", "write"],
  triage: ["read", "triage"],
  read: ["read", "read"],
};

/** The collaborator permission API; "none" is GitHub's 404 for a non-collaborator. */
export function mockPermission(login: string, permission: string): void {
  const scope = nockGitHub().get(`${R}/collaborators/${login}/permission`);
  const role = ROLE[permission];
  if (role === undefined) {
    scope.reply(404, { message: "Not Found" });
    return;
  }
  scope.reply(200, { permission: role[0], role_name: role[1], user: user(login) });
}

export function mockIssueReaction(issue: number): void {
  nockGitHub()
    .post(`${R}/issues/${issue}/reactions`, expectBody({ content: "eyes" }))
    .reply(201, { id: 1, content: "eyes", user: user("cfa-bot[bot]", "Bot") });
}

export function mockCommentReaction(comment: number): void {
  nockGitHub()
    .post(`${R}/issues/comments/${comment}/reactions`, expectBody({ content: "eyes" }))
    .reply(201, { id: 1, content: "eyes", user: user("cfa-bot[bot]", "Bot") });
}

export function mockDispatch(job: number, workflow = "cfa.yml"): void {
  nockGitHub()
    .post(
      `${R}/actions/workflows/${workflow}/dispatches`,
      expectBody({ ref: "master", inputs: { job: String(job) } }),
    )
    .reply(204);
}

export function mockActiveRuns(
  runs: { id: number; title: string; status?: string }[],
  workflow = "cfa.yml",
): void {
  nockGitHub()
    .get(`${R}/actions/workflows/${workflow}/runs`)
    .query({ event: "workflow_dispatch", per_page: "100" })
    .reply(200, {
      total_count: runs.length,
      workflow_runs: runs.map((r) => ({
        id: r.id,
        display_title: r.title,
        status: r.status ?? "in_progress",
      })),
    });
}

export function mockCancel(run: number, status = 202): void {
  nockGitHub().post(`${R}/actions/runs/${run}/cancel`).reply(status, {});
}

export function mockComments(
  issue: number,
  bodies: { body: string; login?: string; type?: string }[],
): void {
  nockGitHub()
    .get(`${R}/issues/${issue}/comments`)
    .query({ per_page: "100" })
    .reply(
      200,
      bodies.map((c, i) => ({
        id: 1000 + i,
        body: c.body,
        user: user(c.login ?? "cfa-bot[bot]", c.type ?? "Bot"),
        created_at: "2026-01-01T00:00:00Z",
        html_url: `https://github.com/${OWNER}/${REPO}/issues/${issue}#issuecomment-${1000 + i}`,
      })),
    );
}

export function mockCreateComment(issue: number, body: RegExp): void {
  nockGitHub()
    .post(`${R}/issues/${issue}/comments`, expectBody({ body }))
    .reply(201, { id: 2000, body: "", user: user("cfa-bot[bot]", "Bot") });
}

export { withHiddenBlock };
