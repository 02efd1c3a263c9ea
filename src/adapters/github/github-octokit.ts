// The part of Octokit the GitHub forge calls, typed structurally so that both an
// `Octokit` from @octokit/rest and a `ProbotOctokit` (whose @octokit/types is another
// version) fit without a cast. Only the parameters the forge sends are declared; the data
// that comes back is `unknown` until the forge has validated it.

import type { Reaction } from "../../ports/forge.js";

/** What every Octokit call resolves to; the data is validated by the forge, not trusted. */
export interface GitHubResponse {
  data: unknown;
  /** The response headers (the forge reads `etag` for conditional requests). */
  headers?: Record<string, unknown>;
}

// Type aliases, not interfaces: only an alias gets the implicit index signature that makes
// it assignable to Octokit's `RequestParameters`.
type RepoParams = {
  owner: string;
  repo: string;
};

export interface GitHubOctokit {
  rest: {
    issues: {
      get(
        params: RepoParams & { issue_number: number; headers?: Record<string, string> },
      ): Promise<GitHubResponse>;
      createComment(
        params: RepoParams & { issue_number: number; body: string },
      ): Promise<GitHubResponse>;
      updateComment(
        params: RepoParams & { comment_id: number; body: string },
      ): Promise<GitHubResponse>;
    };
    reactions: {
      createForIssueComment(
        params: RepoParams & { comment_id: number; content: Reaction },
      ): Promise<GitHubResponse>;
      createForIssue(
        params: RepoParams & { issue_number: number; content: Reaction },
      ): Promise<GitHubResponse>;
    };
    repos: {
      get(params: RepoParams): Promise<GitHubResponse>;
      getCollaboratorPermissionLevel(
        params: RepoParams & { username: string },
      ): Promise<GitHubResponse>;
      getContent(params: RepoParams & { path: string; ref?: string }): Promise<GitHubResponse>;
    };
    git: {
      deleteRef(params: RepoParams & { ref: string }): Promise<GitHubResponse>;
    };
    pulls: {
      get(params: RepoParams & { pull_number: number }): Promise<GitHubResponse>;
      create(
        params: RepoParams & {
          head: string;
          base: string;
          title: string;
          body: string;
          draft: boolean;
        },
      ): Promise<GitHubResponse>;
      update(
        params: RepoParams & {
          pull_number: number;
          title?: string;
          body?: string;
          state?: "open" | "closed";
        },
      ): Promise<GitHubResponse>;
      requestReviewers(
        params: RepoParams & { pull_number: number; reviewers: string[] },
      ): Promise<GitHubResponse>;
    };
    checks: {
      create(params: RepoParams & CheckRunFields & { head_sha: string }): Promise<GitHubResponse>;
      update(
        params: RepoParams & CheckRunFields & { check_run_id: number },
      ): Promise<GitHubResponse>;
      listForRef(
        params: RepoParams & { ref: string; check_name?: string; per_page?: number },
      ): Promise<GitHubResponse>;
    };
  };
  /** Pages through a list route; `mapFn` sees every page (the forge counts them there). */
  paginate(
    route: string,
    params: Record<string, unknown>,
    mapFn: (response: GitHubResponse) => unknown[],
  ): Promise<unknown[]>;
  graphql(query: string, variables: Record<string, unknown>): Promise<unknown>;
}

/** The body fields of a check run the forge sets on create and update. */
export type CheckRunFields = {
  name: string;
  status: "in_progress" | "completed";
  conclusion?: "success" | "failure" | "cancelled" | "neutral";
  output: { title: string; summary: string };
};
