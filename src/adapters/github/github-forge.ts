// The Forge port over GitHub: Octokit for issues, pull requests, reviews and checks, and
// `git push` from a local clone for branches (only the worker writes the job branch, and
// it commits there: DESIGN.md, "One writer per job"). Every response is validated before
// use, every failure becomes a GitHubForgeError with secrets redacted, and every API call
// is counted so the job's note can report calls per job.

import * as z from "zod";
import { fitComment } from "../../comments/comment-text.js";
import type {
  CheckUpdate,
  Comment,
  Forge,
  Issue,
  JobView,
  Permission,
  PullRequest,
  Reaction,
  Review,
  ReviewRequestResult,
} from "../../ports/forge.js";
import { noopLogger, type Logger } from "../../ports/logger.js";
import { checkRunFields } from "./check-run-fields.js";
import { GitHubForgeError, statusOf, toGitHubForgeError } from "./github-forge-error.js";
import type { GitHubOctokit, GitHubResponse } from "./github-octokit.js";
import { mapPermission } from "./map-permission.js";
import { toComment, toIssue, toPullRequest, toReview, toReviewComment } from "./map-responses.js";
import { basicCredentials, pushBranch } from "./push-branch.js";
import {
  JOB_VIEW_QUERY,
  JobViewDataSchema,
  MARK_READY_MUTATION,
  OLDER_COMMENTS_QUERY,
  OLDER_REVIEWS_QUERY,
  OlderCommentsSchema,
  OlderReviewsSchema,
  toGraphqlComment,
  toGraphqlIssue,
  toGraphqlPullRequest,
  toGraphqlReview,
  toLabelEvents,
  type PullRequestNode,
} from "./job-view-query.js";
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
  /**
   * Drops the token git was just refused with (GitHub revoked it before its time), so the
   * next `token()` mints another; the push is then tried once more. Absent: a refusal stands.
   */
  forgetToken?: () => void;
  logger?: Logger;
  /** Where people read the repository; default https://github.com/<owner>/<repo>. */
  repoUrl?: string;
  /**
   * Whether pushes may change .github/workflows/ (`pushWorkflows: true` in the repository's
   * config, for an app with the Workflows permission). Asked at each push; default no.
   */
  pushWorkflows?: () => boolean;
}

export interface GitHubForge extends Forge {
  /**
   * GitHub API requests made so far that count against the rate limit (each page of a list
   * counts; a conditional request answered 304 does not), git pushes excluded.
   */
  apiCalls(): number;
  /** Conditional requests GitHub answered 304 Not Modified: free against the rate limit. */
  notModified(): number;
}

/** What conditional reads of an issue compare: the fields a person's action changes. */
interface IssueFingerprint {
  state: string;
  labels: string[];
  title: string;
  body: string;
  comments: number;
}

const sameFingerprint = (a: IssueFingerprint, b: IssueFingerprint) =>
  JSON.stringify(a) === JSON.stringify(b);

export function createGitHubForge(options: GitHubForgeOptions): GitHubForge {
  return new GitHubForgeAdapter(options);
}

const NO_CONTENT = z.unknown();

// GitHub's words for a repository without drafts (GitHub Free or Pro, private).
const DRAFTS_UNSUPPORTED = /draft pull requests are not supported/i;

function fingerprintOf(issue: Issue): Omit<IssueFingerprint, "comments"> {
  return {
    state: issue.state,
    labels: [...issue.labels].sort(),
    title: issue.title,
    body: issue.body,
  };
}

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
  private notModifiedCalls = 0;
  /** A job view read moments ago, handed out once more (run-job reads, then the wake). */
  private stash: { issue: number; head: string; view: JobView } | undefined;
  /** `.github/cfa.yml` as the last job view read it, for the next readConfig() only. */
  private prefetchedConfig: { text: string | null } | undefined;
  /** Per issue: the ETag of the last conditional read and what the issue looked like. */
  private readonly issueEtags = new Map<number, string>();
  private readonly fingerprints = new Map<number, IssueFingerprint>();
  /** Pull requests seen: their GraphQL ids and draft flags (marking ready needs both). */
  private readonly pulls = new Map<number, { nodeId: string; draft: boolean }>();
  /** Commits this process pushed: no check run can exist on them yet. */
  private readonly pushedShas = new Set<string>();
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

  notModified(): number {
    return this.notModifiedCalls;
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

  async readJob(issue: number, head: string): Promise<JobView> {
    const stashed = this.stash;
    this.stash = undefined;
    if (stashed?.issue === issue && stashed.head === head) return stashed.view;
    const view = await this.queryJob(issue, head);
    this.stash = { issue, head, view };
    return view;
  }

  /**
   * A conditional GET of the issue (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate):
   * "Making a conditional request does not count against your primary rate limit if a 304
   * response is returned". A 200 that differs from the last read only by the bot's own
   * comments is no news either.
   */
  async issueChanged(number: number): Promise<boolean> {
    this.stash = undefined;
    const etag = this.issueEtags.get(number);
    let response: GitHubResponse;
    try {
      response = await this.octokit.rest.issues.get({
        ...this.repoParams,
        issue_number: number,
        ...(etag === undefined ? {} : { headers: { "if-none-match": etag } }),
      });
    } catch (error) {
      if (isStatus(error, 304)) {
        this.notModifiedCalls += 1;
        return false;
      }
      this.calls += 1;
      throw toGitHubForgeError("issues.get", error, this.redact);
    }
    this.calls += 1;
    const fresh = response.headers?.["etag"];
    if (typeof fresh === "string") this.issueEtags.set(number, fresh);
    const issue = this.parse("issues.get", IssueSchema, response.data);
    const now: IssueFingerprint = {
      ...fingerprintOf(toIssue(issue)),
      comments: issue.comments ?? -1,
    };
    const before = this.fingerprints.get(number);
    this.fingerprints.set(number, now);
    return before === undefined || !sameFingerprint(before, now);
  }

  async createComment(issue: number, body: string): Promise<Comment> {
    const comment = await this.call("issues.createComment", IssueCommentSchema, () =>
      this.octokit.rest.issues.createComment({
        ...this.repoParams,
        issue_number: issue,
        body: fitComment(body),
      }),
    );
    // The bot's own comment is no news to a conditional read of the issue.
    const known = this.fingerprints.get(issue);
    if (known) this.fingerprints.set(issue, { ...known, comments: known.comments + 1 });
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
    const push = async () =>
      pushBranch(
        {
          repoDir: this.options.repoDir,
          remote: this.options.remote ?? "origin",
          token: await this.pushToken(),
          pushWorkflows: this.options.pushWorkflows?.() ?? false,
          redact: this.redact,
          logger: this.logger,
        },
        branch,
        update,
      );
    try {
      await push();
    } catch (error) {
      // An installation token GitHub stopped taking before its hour was out (the app's
      // permissions changed, the token was revoked): the API client mints again on a 401
      // (worker/github-client.ts); git's refusal gets the same, once.
      const forget = this.options.forgetToken;
      if (forget === undefined || !isGitAuthRefusal(error)) throw error;
      this.logger.info("cfa/github: GitHub refused the token for git push; minting a new one");
      forget();
      await push();
    }
    this.pushedShas.add(update.sha);
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
    for (const pr of pulls)
      this.pulls.set(pr.number, { nodeId: pr.node_id, draft: pr.draft ?? false });
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
    const create = (draft: boolean) =>
      this.call("pulls.create", PullRequestSchema, () =>
        this.octokit.rest.pulls.create({
          ...this.repoParams,
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
    this.pulls.set(pr.number, { nodeId: pr.node_id, draft: pr.draft ?? false });
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
    // REST cannot clear `draft` (pulls/update ignores it); GraphQL can, by node id. A pull
    // request this process has seen is not fetched again.
    let known = this.pulls.get(number);
    if (known === undefined) {
      const pr = await this.call("pulls.get", PullRequestSchema, () =>
        this.octokit.rest.pulls.get({ ...this.repoParams, pull_number: number }),
      );
      known = { nodeId: pr.node_id, draft: pr.draft === true };
    }
    if (!known.draft) return;
    const nodeId = known.nodeId;
    await this.call("graphql.markPullRequestReadyForReview", MarkReadySchema, async () => ({
      data: await this.octokit.graphql(MARK_READY_MUTATION, { pullRequestId: nodeId }),
    }));
    this.pulls.set(number, { nodeId, draft: false });
  }

  async closePullRequest(number: number): Promise<void> {
    await this.call("pulls.update", NO_CONTENT, () =>
      this.octokit.rest.pulls.update({ ...this.repoParams, pull_number: number, state: "closed" }),
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
    let id = this.checkRuns.get(key);
    // A commit this process pushed carries no check run yet; any other may carry one an
    // earlier run made, found (all our names at once) rather than made twice.
    if (id === undefined && !this.pushedShas.has(check.sha)) {
      await this.findCheckRuns(check.sha);
      id = this.checkRuns.get(key);
    }
    const fields = checkRunFields(check);
    if (id === undefined) {
      const created = await this.call("checks.create", CheckRunSchema, () =>
        this.octokit.rest.checks.create({ ...this.repoParams, head_sha: check.sha, ...fields }),
      );
      this.checkRuns.set(key, created.id);
      return;
    }
    const existing = id;
    await this.call("checks.update", NO_CONTENT, () =>
      this.octokit.rest.checks.update({ ...this.repoParams, check_run_id: existing, ...fields }),
    );
  }

  async readConfig(): Promise<string | null> {
    const prefetched = this.prefetchedConfig;
    this.prefetchedConfig = undefined;
    if (prefetched !== undefined) return prefetched.text;
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

  private async findCheckRuns(sha: string): Promise<void> {
    const found = await this.call("checks.listForRef", CheckRunListSchema, () =>
      this.octokit.rest.checks.listForRef({ ...this.repoParams, ref: sha, per_page: 100 }),
    );
    for (const run of found.check_runs) {
      if (run.head_sha === sha) this.checkRuns.set(`${run.name}@${sha}`, run.id);
    }
  }

  /** The job view in one GraphQL query, with older pages only for a long issue or PR. */
  private async queryJob(issueNumber: number, head: string): Promise<JobView> {
    const data = await this.graphql("graphql.jobView", JobViewDataSchema, JOB_VIEW_QUERY, {
      ...this.repoVariables(),
      issue: issueNumber,
      head,
      config: `HEAD:${CONFIG_PATH}`,
    });
    const repository = data.repository;
    if (repository.defaultBranchRef !== null) {
      this.knownDefaultBranch = repository.defaultBranchRef.name;
    }
    this.prefetchedConfig = { text: this.configText(repository.config) };
    const node = repository.issueOrPullRequest;
    if (node === null) {
      throw new GitHubForgeError(
        `cfa/github: issue #${issueNumber} does not exist in ${this.options.owner}/${this.options.repo}, or the token cannot see it`,
        { operation: "graphql.jobView", status: 404 },
      );
    }
    if (node.__typename === "PullRequest") {
      const issue: Issue = {
        number: issueNumber,
        title: "",
        body: "",
        author: { login: "ghost", type: "User" },
        labels: [],
        state: "closed",
        url: `${this.repoUrl}/pull/${issueNumber}`,
        isPullRequest: true,
      };
      return { issue, comments: [], pullRequest: null, reviews: [], labelEvents: [] };
    }
    const comments = node.comments.nodes.flatMap((c) => (c === null ? [] : [toGraphqlComment(c)]));
    let page = node.comments.pageInfo;
    while (page.hasPreviousPage && page.startCursor !== null) {
      const older = await this.graphql(
        "graphql.olderComments",
        OlderCommentsSchema,
        OLDER_COMMENTS_QUERY,
        {
          ...this.repoVariables(),
          issue: issueNumber,
          before: page.startCursor,
        },
      );
      const more = older.repository.issue?.comments;
      if (more === undefined) break;
      comments.unshift(...more.nodes.flatMap((c) => (c === null ? [] : [toGraphqlComment(c)])));
      page = more.pageInfo;
    }
    const issue = toGraphqlIssue(node);
    this.fingerprints.set(issueNumber, {
      ...fingerprintOf(issue),
      comments: node.comments.totalCount,
    });
    const prs = repository.pullRequests.nodes.filter((pr): pr is PullRequestNode => pr !== null);
    for (const pr of prs) this.pulls.set(pr.number, { nodeId: pr.id, draft: pr.isDraft });
    // Newest first: an open one wins over any closed earlier attempt.
    const chosen = prs.find((pr) => pr.state === "OPEN") ?? prs[0];
    return {
      issue,
      comments,
      pullRequest: chosen === undefined ? null : toGraphqlPullRequest(chosen),
      reviews: chosen === undefined ? [] : await this.allReviews(chosen),
      labelEvents: toLabelEvents(node),
    };
  }

  private async allReviews(pr: PullRequestNode): Promise<Review[]> {
    const nodes = [...pr.reviews.nodes];
    let page = pr.reviews.pageInfo;
    while (page.hasPreviousPage && page.startCursor !== null) {
      const older = await this.graphql(
        "graphql.olderReviews",
        OlderReviewsSchema,
        OLDER_REVIEWS_QUERY,
        {
          id: pr.id,
          before: page.startCursor,
        },
      );
      if (older.node === null) break;
      nodes.unshift(...older.node.reviews.nodes);
      page = older.node.reviews.pageInfo;
    }
    return nodes.flatMap((n) => {
      const review = n === null ? null : toGraphqlReview(n);
      return review === null ? [] : [review];
    });
  }

  private configText(
    config: {
      __typename: string;
      text?: string | null | undefined;
      isTruncated?: boolean | undefined;
      byteSize?: number | undefined;
    } | null,
  ): string | null {
    if (config === null) return null;
    if (config.__typename !== "Blob") {
      throw new GitHubForgeError(
        `cfa/github: ${CONFIG_PATH} is not a file on the default branch; make it a YAML file or remove it`,
        { operation: "graphql.jobView" },
      );
    }
    if (config.isTruncated === true || typeof config.text !== "string") {
      throw new GitHubForgeError(
        `cfa/github: ${CONFIG_PATH} is too large or not text (${config.byteSize ?? "?"} bytes); keep it a small YAML file`,
        { operation: "graphql.jobView" },
      );
    }
    return config.text;
  }

  private repoVariables(): { owner: string; repo: string } {
    return { owner: this.options.owner, repo: this.options.repo };
  }

  private async graphql<S extends z.ZodType>(
    operation: string,
    schema: S,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<z.infer<S>> {
    return this.call(operation, schema, async () => ({
      data: await this.octokit.graphql(query, variables),
    }));
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

// What git prints when the server answers 401 to its credentials (git's http.c:
// "Authentication failed for '<url>'"; with no terminal, "could not read Username").
const GIT_AUTH_REFUSED =
  /Authentication failed for|could not read Username|The requested URL returned error: 401/i;

function isGitAuthRefusal(error: unknown): boolean {
  if (!(error instanceof GitHubForgeError) || error.operation !== "git push") return false;
  const cause = error.cause instanceof Error ? error.cause.message : "";
  return GIT_AUTH_REFUSED.test(`${error.message}\n${cause}`);
}
