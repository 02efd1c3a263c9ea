// The job's pull request: found or opened (a draft, or ready where GitHub has no drafts),
// edited, marked ready, closed; its reviewers asked and its reviews read. Pull requests seen
// are remembered with their GraphQL ids and draft flags: marking ready needs both.

import type * as z from "zod";
import type { PullRequest, Review, ReviewRequestResult } from "../../ports/forge.js";
import type { Logger } from "../../ports/logger.js";
import { fitComment } from "../../comments/comment-text.js";
import { isStatus, NO_CONTENT, type GitHubCalls } from "./github-calls.js";
import { MARK_READY_MUTATION } from "./job-view-query.js";
import { toPullRequest, toReview, toReviewComment } from "./map-responses.js";
import {
  MarkReadySchema,
  PullRequestSchema,
  ReviewCommentSchema,
  ReviewSchema,
} from "./response-schemas.js";

// GitHub's words for a repository without drafts (GitHub Free or Pro, private).
const DRAFTS_UNSUPPORTED = /draft pull requests are not supported/i;

export interface PullRequestRequest {
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
}

export class PullRequests {
  /** Pull requests seen: their GraphQL ids and draft flags (marking ready needs both). */
  private readonly seen = new Map<number, { nodeId: string; draft: boolean }>();

  constructor(
    private readonly calls: GitHubCalls,
    private readonly logger: Logger,
  ) {}

  /** A pull request read another way (the job view). */
  saw(number: number, nodeId: string, draft: boolean): void {
    this.seen.set(number, { nodeId, draft });
  }

  async find(head: string): Promise<PullRequest | null> {
    const pulls = await this.calls.list(
      "pulls.list",
      "GET /repos/{owner}/{repo}/pulls",
      { head: `${this.calls.repo.owner}:${head}`, state: "all" },
      PullRequestSchema,
    );
    for (const pr of pulls) this.saw(pr.number, pr.node_id, pr.draft ?? false);
    // GitHub lists newest first; an open one wins over any closed earlier attempt.
    const chosen = pulls.find((pr) => pr.state === "open") ?? pulls[0];
    return chosen === undefined ? null : toPullRequest(chosen);
  }

  async create(request: PullRequestRequest): Promise<PullRequest> {
    const { octokit, repo } = this.calls;
    const create = (draft: boolean) =>
      this.calls.call("pulls.create", PullRequestSchema, () =>
        octokit.rest.pulls.create({
          ...repo,
          head: request.head,
          base: request.base,
          title: request.title,
          body: fitComment(request.body),
          draft,
        }),
      );
    let pr: z.infer<typeof PullRequestSchema>;
    try {
      pr = await create(request.draft);
    } catch (error) {
      // Drafts exist on public repositories and on paid plans only; elsewhere GitHub answers
      // 422 "Draft pull requests are not supported in this repository." (observed, e.g.
      // SWE-agent/SWE-agent#179; docs.github.com "About pull requests": draft pull requests
      // need GitHub Team or Enterprise for private repositories). The PR opens ready instead:
      // the caller sees `draft: false` and says so.
      if (!request.draft || !isStatus(error, 422) || !DRAFTS_UNSUPPORTED.test(String(error))) {
        throw error;
      }
      this.logger.warn("cfa/github: draft pull requests are not supported here; opening it ready");
      pr = await create(false);
    }
    this.saw(pr.number, pr.node_id, pr.draft ?? false);
    return toPullRequest(pr);
  }

  async update(number: number, update: { title?: string; body?: string }): Promise<void> {
    const fields: { title?: string; body?: string } = {};
    if (update.title !== undefined) fields.title = update.title;
    if (update.body !== undefined) fields.body = fitComment(update.body);
    if (Object.keys(fields).length === 0) return;
    const { octokit, repo } = this.calls;
    await this.calls.call("pulls.update", NO_CONTENT, () =>
      octokit.rest.pulls.update({ ...repo, pull_number: number, ...fields }),
    );
  }

  async markReady(number: number): Promise<void> {
    const { octokit, repo } = this.calls;
    // REST cannot clear `draft` (pulls/update ignores it); GraphQL can, by node id. A pull
    // request this process has seen is not fetched again.
    let known = this.seen.get(number);
    if (known === undefined) {
      const pr = await this.calls.call("pulls.get", PullRequestSchema, () =>
        octokit.rest.pulls.get({ ...repo, pull_number: number }),
      );
      known = { nodeId: pr.node_id, draft: pr.draft === true };
    }
    if (!known.draft) return;
    const nodeId = known.nodeId;
    await this.calls.call("graphql.markPullRequestReadyForReview", MarkReadySchema, async () => ({
      data: await octokit.graphql(MARK_READY_MUTATION, { pullRequestId: nodeId }),
    }));
    this.saw(number, nodeId, false);
  }

  async close(number: number): Promise<void> {
    const { octokit, repo } = this.calls;
    await this.calls.call("pulls.update", NO_CONTENT, () =>
      octokit.rest.pulls.update({ ...repo, pull_number: number, state: "closed" }),
    );
  }

  async requestReview(number: number, logins: string[]): Promise<ReviewRequestResult> {
    const refused: ReviewRequestResult["refused"] = [];
    if (logins.length === 0) return { refused };
    try {
      await this.requestReviewers(number, logins);
      return { refused };
    } catch (error) {
      if (!isStatus(error, 422)) throw error;
      if (logins.length === 1) {
        refused.push(this.skipReviewer(number, logins[0] ?? "", error));
        return { refused };
      }
    }
    // One unrequestable login fails the whole call: ask for the others one by one.
    for (const login of logins) {
      try {
        await this.requestReviewers(number, [login]);
      } catch (single) {
        if (!isStatus(single, 422)) throw single;
        refused.push(this.skipReviewer(number, login, single));
      }
    }
    return { refused };
  }

  async listReviews(number: number): Promise<Review[]> {
    const reviews = await this.calls.list(
      "pulls.listReviews",
      "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
      { pull_number: number },
      ReviewSchema,
    );
    const mapped: Review[] = [];
    for (const review of reviews) {
      // Inline comments matter only to a revision: fetch them for change requests alone.
      const comments =
        review.state === "CHANGES_REQUESTED"
          ? (
              await this.calls.list(
                "pulls.listCommentsForReview",
                "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments",
                { pull_number: number, review_id: review.id },
                ReviewCommentSchema,
              )
            ).map(toReviewComment)
          : [];
      const result = toReview(review, comments);
      if (result !== null) mapped.push(result);
    }
    return mapped;
  }

  private async requestReviewers(number: number, logins: string[]): Promise<void> {
    const { octokit, repo } = this.calls;
    await this.calls.call("pulls.requestReviewers", NO_CONTENT, () =>
      octokit.rest.pulls.requestReviewers({ ...repo, pull_number: number, reviewers: logins }),
    );
  }

  private skipReviewer(
    number: number,
    login: string,
    error: unknown,
  ): { login: string; reason: string } {
    // The PR's author, or someone who is not a collaborator: the job must not fail over it;
    // the caller tells the person (a comment), not only the log.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    this.logger.warn("cfa/github: could not request a review; continuing", {
      pr: number,
      login,
      reason,
    });
    return { login, reason };
  }
}
