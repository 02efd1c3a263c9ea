// The Forge port over GitHub: Octokit for issues, pull requests, reviews and checks, and
// `git push` from a local clone for branches (only the worker writes the job branch, and
// it commits there: DESIGN.md, "One writer per job"). Every response is validated before
// use, every failure becomes a GitHubForgeError with secrets redacted, and every API call
// is counted so the job's note can report calls per job.

import * as z from "zod";
import { fitComment } from "../../engine/render/text.js";
import type {
  CheckUpdate,
  Comment,
  Forge,
  Issue,
  Permission,
  PullRequest,
  Reaction,
  Review,
} from "../../ports/forge.js";
import { noopLogger, type Logger } from "../../ports/logger.js";
import { checkRunFields } from "./check-run-fields.js";
import { GitHubForgeError, statusOf, toGitHubForgeError } from "./github-forge-error.js";
import type { GitHubOctokit, GitHubResponse } from "./github-octokit.js";
import { mapPermission } from "./map-permission.js";
import { toComment, toIssue, toPullRequest, toReview, toReviewComment } from "./map-responses.js";
import { basicCredentials, pushBranch } from "./push-branch.js";
import { createRedactor, type Redact } from "../../secrets/index.js";
import {
  CheckRunListSchema,
  CheckRunSchema,
  CollaboratorPermissionSchema,
  ContentSchema,
  IssueCommentSchema,
  IssueSchema,
  MarkReadySchema,
  PullRequestSchema,
  RepositorySchema,
  ReviewCommentSchema,
  ReviewSchema,
} from "./response-schemas.js";

/** Where a repository keeps its cfa-bot configuration (DESIGN.md, "Configuration"). */
export const CONFIG_PATH = ".github/cfa.yml";

export interface GitHubForgeOptions {
  /** An `Octokit` from @octokit/rest or a `ProbotOctokit`, authenticated for the repo. */
  octokit: GitHubOctokit;
  owner: string;
  repo: string;
  /** The login the bot posts as, e.g. "cfa-bot[bot]" or "github-actions[bot]". */
  botLogin: string;
  /** A local clone of the repository: the worker commits there and pushes from there. */
  repoDir: string;
  /** The clone's name for GitHub; default "origin". */
  remote?: string;
  /**
   * A token for `git push` over https; never written to disk or argv. A function is asked
   * before every push, so a long run pushes with a fresh installation token.
   */
  token?: string | (() => Promise<string>);
  logger?: Logger;
  /** Where people read the repository; default https://github.com/<owner>/<repo>. */
  repoUrl?: string;
}

export interface GitHubForge extends Forge {
  /** GitHub API requests made so far (each page of a list counts), git pushes excluded. */
  apiCalls(): number;
}

export function createGitHubForge(options: GitHubForgeOptions): GitHubForge {
  return new GitHubForgeAdapter(options);
}

const MARK_READY = `mutation cfaMarkReady($pullRequestId: ID!) {
  markPullRequestReadyForReview(input: { pullRequestId: $pullRequestId }) {
    pullRequest { isDraft }
  }
}`;

const NO_CONTENT = z.unknown();

function isStatus(error: unknown, ...statuses: number[]): boolean {
  const status = statusOf(error);
  return status !== undefined && statuses.includes(status);
}

class GitHubForgeAdapter implements GitHubForge {
  readonly botLogin: string;
  readonly repoUrl: string;
  private readonly octokit: GitHubOctokit;
  private readonly repoParams: { owner: string; repo: string };
  private readonly logger: Logger;
  private readonly redact: Redact;
  private calls = 0;
  /** Every push token used so far: the redactor hides each (and its basic-auth form). */
  private readonly tokens: string[] = [];
  private knownDefaultBranch: string | undefined;
  /** Check run ids by `name@sha`, so a check is created once and then updated. */
  private readonly checkRuns = new Map<string, number>();

  constructor(private readonly options: GitHubForgeOptions) {
    this.octokit = options.octokit;
    this.botLogin = options.botLogin;
    this.repoParams = { owner: options.owner, repo: options.repo };
    this.repoUrl = options.repoUrl ?? `https://github.com/${options.owner}/${options.repo}`;
    this.logger = options.logger ?? noopLogger;
    if (typeof options.token === "string") this.tokens.push(options.token);
    this.redact = createRedactor(() => this.tokens.flatMap((t) => [t, basicCredentials(t)]));
  }

  /** The token for the next push: asked for each time, remembered for the redactor. */
  private async pushToken(): Promise<string | undefined> {
    const given = this.options.token;
    const token = typeof given === "function" ? await given() : given;
    if (token !== undefined && token !== "" && !this.tokens.includes(token))
      this.tokens.push(token);
    return token;
  }

  apiCalls(): number {
    return this.calls;
  }

  // ---- issues and comments ----

  async getIssue(number: number): Promise<Issue> {
    const issue = await this.call("issues.get", IssueSchema, () =>
      this.octokit.rest.issues.get({ ...this.repoParams, issue_number: number }),
    );
    return toIssue(issue);
  }

  async listComments(issue: number): Promise<Comment[]> {
    const comments = await this.list(
      "issues.listComments",
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { issue_number: issue },
      IssueCommentSchema,
    );
    return comments.map(toComment);
  }

  async createComment(issue: number, body: string): Promise<Comment> {
    const comment = await this.call("issues.createComment", IssueCommentSchema, () =>
      this.octokit.rest.issues.createComment({
        ...this.repoParams,
        issue_number: issue,
        body: fitComment(body),
      }),
    );
    return toComment(comment);
  }

  async updateComment(id: number, body: string): Promise<void> {
    await this.call("issues.updateComment", NO_CONTENT, () =>
      this.octokit.rest.issues.updateComment({
        ...this.repoParams,
        comment_id: id,
        body: fitComment(body),
      }),
    );
  }

  async react(target: { comment: number } | { issue: number }, reaction: Reaction) {
    // GitHub answers 200 when the bot already reacted the same way: reacting is idempotent.
    if ("comment" in target) {
      await this.call("reactions.createForIssueComment", NO_CONTENT, () =>
        this.octokit.rest.reactions.createForIssueComment({
          ...this.repoParams,
          comment_id: target.comment,
          content: reaction,
        }),
      );
    } else {
      await this.call("reactions.createForIssue", NO_CONTENT, () =>
        this.octokit.rest.reactions.createForIssue({
          ...this.repoParams,
          issue_number: target.issue,
          content: reaction,
        }),
      );
    }
  }

  async permission(login: string): Promise<Permission> {
    try {
      const answer = await this.call(
        "repos.getCollaboratorPermissionLevel",
        CollaboratorPermissionSchema,
        () =>
          this.octokit.rest.repos.getCollaboratorPermissionLevel({
            ...this.repoParams,
            username: login,
          }),
      );
      return mapPermission(answer);
    } catch (error) {
      // Not a collaborator (or no such user): no authority.
      if (isStatus(error, 404)) return "none";
      throw error;
    }
  }

  // ---- branches ----

  async defaultBranch(): Promise<string> {
    // Renaming the default branch mid-job is rare enough that one read per adapter will do.
    if (this.knownDefaultBranch !== undefined) return this.knownDefaultBranch;
    const repository = await this.call("repos.get", RepositorySchema, () =>
      this.octokit.rest.repos.get({ ...this.repoParams }),
    );
    this.knownDefaultBranch = repository.default_branch;
    return repository.default_branch;
  }

  async pushBranch(branch: string, update: { sha: string; expectedOld: string | null }) {
    await pushBranch(
      {
        repoDir: this.options.repoDir,
        remote: this.options.remote ?? "origin",
        token: await this.pushToken(),
        redact: this.redact,
        logger: this.logger,
      },
      branch,
      update,
    );
  }

  async deleteBranch(branch: string): Promise<void> {
    try {
      await this.call("git.deleteRef", NO_CONTENT, () =>
        this.octokit.rest.git.deleteRef({ ...this.repoParams, ref: `heads/${branch}` }),
      );
    } catch (error) {
      // Already gone (deleted by a person, or by an earlier run that crashed after it).
      if (isStatus(error, 404)) return;
      if (isStatus(error, 422) && /does not exist|not found/i.test(String(error))) return;
      throw error;
    }
  }

  // ---- pull requests ----

  async findPullRequest(head: string): Promise<PullRequest | null> {
    const pulls = await this.list(
      "pulls.list",
      "GET /repos/{owner}/{repo}/pulls",
      { head: `${this.options.owner}:${head}`, state: "all" },
      PullRequestSchema,
    );
    // GitHub lists newest first; an open one wins over any closed earlier attempt.
    const chosen = pulls.find((pr) => pr.state === "open") ?? pulls[0];
    return chosen === undefined ? null : toPullRequest(chosen);
  }

  async createPullRequest(request: {
    head: string;
    base: string;
    title: string;
    body: string;
    draft: boolean;
  }): Promise<PullRequest> {
    const pr = await this.call("pulls.create", PullRequestSchema, () =>
      this.octokit.rest.pulls.create({
        ...this.repoParams,
        head: request.head,
        base: request.base,
        title: request.title,
        body: fitComment(request.body),
        draft: request.draft,
      }),
    );
    return toPullRequest(pr);
  }

  async updatePullRequest(number: number, update: { title?: string; body?: string }) {
    const fields: { title?: string; body?: string } = {};
    if (update.title !== undefined) fields.title = update.title;
    if (update.body !== undefined) fields.body = fitComment(update.body);
    if (Object.keys(fields).length === 0) return;
    await this.call("pulls.update", NO_CONTENT, () =>
      this.octokit.rest.pulls.update({ ...this.repoParams, pull_number: number, ...fields }),
    );
  }

  async markReadyForReview(number: number): Promise<void> {
    // REST cannot clear `draft` (pulls/update ignores it); GraphQL can, by node id.
    const pr = await this.call("pulls.get", PullRequestSchema, () =>
      this.octokit.rest.pulls.get({ ...this.repoParams, pull_number: number }),
    );
    if (pr.draft !== true) return;
    await this.call("graphql.markPullRequestReadyForReview", MarkReadySchema, async () => ({
      data: await this.octokit.graphql(MARK_READY, { pullRequestId: pr.node_id }),
    }));
  }

  async closePullRequest(number: number): Promise<void> {
    await this.call("pulls.update", NO_CONTENT, () =>
      this.octokit.rest.pulls.update({ ...this.repoParams, pull_number: number, state: "closed" }),
    );
  }

  async requestReview(number: number, logins: string[]): Promise<void> {
    if (logins.length === 0) return;
    try {
      await this.requestReviewers(number, logins);
    } catch (error) {
      if (!isStatus(error, 422)) throw error;
      if (logins.length === 1) {
        this.skipReviewer(number, logins[0] ?? "", error);
        return;
      }
      // One unrequestable login fails the whole call: ask for the others one by one.
      for (const login of logins) {
        try {
          await this.requestReviewers(number, [login]);
        } catch (single) {
          if (!isStatus(single, 422)) throw single;
          this.skipReviewer(number, login, single);
        }
      }
    }
  }

  async listReviews(number: number): Promise<Review[]> {
    const reviews = await this.list(
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
              await this.list(
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

  // ---- checks and config ----

  async setCheck(check: CheckUpdate): Promise<void> {
    const key = `${check.name}@${check.sha}`;
    const id = this.checkRuns.get(key) ?? (await this.findCheckRun(check));
    const fields = checkRunFields(check);
    if (id === undefined) {
      const created = await this.call("checks.create", CheckRunSchema, () =>
        this.octokit.rest.checks.create({ ...this.repoParams, head_sha: check.sha, ...fields }),
      );
      this.checkRuns.set(key, created.id);
      return;
    }
    await this.call("checks.update", NO_CONTENT, () =>
      this.octokit.rest.checks.update({ ...this.repoParams, check_run_id: id, ...fields }),
    );
    this.checkRuns.set(key, id);
  }

  async readConfig(): Promise<string | null> {
    let content: z.infer<typeof ContentSchema>;
    try {
      // Without `ref`, GitHub reads the default branch.
      content = await this.call("repos.getContent", ContentSchema, () =>
        this.octokit.rest.repos.getContent({ ...this.repoParams, path: CONFIG_PATH }),
      );
    } catch (error) {
      if (isStatus(error, 404)) return null;
      throw error;
    }
    if (Array.isArray(content) || content.type !== "file") {
      throw new GitHubForgeError(
        `cfa/github: ${CONFIG_PATH} is not a file on the default branch; make it a YAML file or remove it`,
        { operation: "repos.getContent" },
      );
    }
    if (content.encoding !== "base64" || content.content === undefined) {
      throw new GitHubForgeError(
        `cfa/github: ${CONFIG_PATH} is too large for the contents API (${content.size ?? "?"} bytes); keep it under 1 MB`,
        { operation: "repos.getContent" },
      );
    }
    return Buffer.from(content.content, "base64").toString("utf8");
  }

  // ---- plumbing ----

  private async requestReviewers(number: number, logins: string[]): Promise<void> {
    await this.call("pulls.requestReviewers", NO_CONTENT, () =>
      this.octokit.rest.pulls.requestReviewers({
        ...this.repoParams,
        pull_number: number,
        reviewers: logins,
      }),
    );
  }

  private skipReviewer(number: number, login: string, error: unknown): void {
    // The PR's author, or someone who is not a collaborator: the gate waits for a review
    // from someone who can give one; the job must not fail over it.
    this.logger.warn("cfa/github: could not request a review; continuing", {
      pr: number,
      login,
      reason: error instanceof Error ? error.message : String(error),
    });
  }

  private async findCheckRun(check: CheckUpdate): Promise<number | undefined> {
    // A new worker process has no memory of runs an earlier one created for this commit.
    const found = await this.call("checks.listForRef", CheckRunListSchema, () =>
      this.octokit.rest.checks.listForRef({
        ...this.repoParams,
        ref: check.sha,
        check_name: check.name,
        per_page: 100,
      }),
    );
    return found.check_runs.find((run) => run.name === check.name && run.head_sha === check.sha)
      ?.id;
  }

  private async call<S extends z.ZodType>(
    operation: string,
    schema: S,
    run: () => Promise<GitHubResponse>,
  ): Promise<z.infer<S>> {
    this.calls += 1;
    let response: GitHubResponse;
    try {
      response = await run();
    } catch (error) {
      throw toGitHubForgeError(operation, error, this.redact);
    }
    return this.parse(operation, schema, response.data);
  }

  private async list<S extends z.ZodType>(
    operation: string,
    route: string,
    params: Record<string, unknown>,
    item: S,
  ): Promise<z.infer<S>[]> {
    let items: unknown[];
    try {
      items = await this.octokit.paginate(
        route,
        { ...this.repoParams, ...params, per_page: 100 },
        (response) => {
          this.calls += 1;
          return Array.isArray(response.data) ? response.data : [response.data];
        },
      );
    } catch (error) {
      // The page that failed was a call too.
      this.calls += 1;
      throw toGitHubForgeError(operation, error, this.redact);
    }
    return this.parse(operation, z.array(item), items);
  }

  private parse<S extends z.ZodType>(operation: string, schema: S, data: unknown): z.infer<S> {
    const parsed = schema.safeParse(data);
    if (parsed.success) return parsed.data;
    throw new GitHubForgeError(
      `cfa/github: ${operation} returned a response this adapter cannot read: ${this.redact(
        z.prettifyError(parsed.error),
      )}; GitHub's API may have changed: report it with the operation name`,
      { operation },
    );
  }
}
