// The Forge port over GitHub: Octokit for issues, pull requests, reviews and checks, and
// `git push` from a local clone for branches (only the worker writes the job branch, and
// it commits there: one writer per job). Every response is validated before
// use, every failure becomes a GitHubForgeError with secrets redacted, and every API call
// is counted so the job's note can report calls per job (github-calls.ts).
//
// A facade: each concern lives in its own module with what it remembers — the job view's
// query (read-job-view.ts), the issue's conditional probe (issue-probe.ts), the pull request
// with its draft fallback (pull-requests.ts), check runs (check-runs.ts), the config
// (repository-config.ts). Here: issues and comments, branches and pushes.

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
import { createRedactor } from "../../secrets/index.js";
import { CheckRuns } from "./check-runs.js";
import { GitHubCalls, isStatus, NO_CONTENT } from "./github-calls.js";
import { GitHubForgeError } from "./github-forge-error.js";
import type { GitHubOctokit } from "./github-octokit.js";
import { IssueProbe } from "./issue-probe.js";
import { mapPermission } from "./map-permission.js";
import { toComment, toIssue } from "./map-responses.js";
import { PullRequests, type PullRequestRequest } from "./pull-requests.js";
import {
  basicCredentials,
  deleteRemoteBranch,
  fetchRemoteBranch,
  pushBranch,
  type PushTarget,
} from "./push-branch.js";
import { readJobView } from "./read-job-view.js";
import { CONFIG_PATH, RepositoryConfig } from "./repository-config.js";
import {
  CollaboratorPermissionSchema,
  IssueCommentSchema,
  IssueSchema,
  RepositorySchema,
} from "./response-schemas.js";

export { CONFIG_PATH } from "./repository-config.js";

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

export function createGitHubForge(options: GitHubForgeOptions): GitHubForge {
  return new GitHubForgeAdapter(options);
}

class GitHubForgeAdapter implements GitHubForge {
  readonly botLogin: string;
  readonly repoUrl: string;
  private readonly octokit: GitHubOctokit;
  private readonly repoParams: { owner: string; repo: string };
  private readonly logger: Logger;
  private readonly calls: GitHubCalls;
  private readonly probe: IssueProbe;
  private readonly pulls: PullRequests;
  private readonly checks: CheckRuns;
  private readonly config: RepositoryConfig;
  /** A job view read moments ago, handed out once more (run-job reads, then the wake). */
  private stash: { issue: number; head: string; view: JobView } | undefined;
  /** Every push token used so far: the redactor hides each (and its basic-auth form). */
  private readonly tokens: string[] = [];
  private knownDefaultBranch: string | undefined;

  constructor(private readonly options: GitHubForgeOptions) {
    this.octokit = options.octokit;
    this.botLogin = options.botLogin;
    this.repoParams = { owner: options.owner, repo: options.repo };
    this.repoUrl = options.repoUrl ?? `https://github.com/${options.owner}/${options.repo}`;
    this.logger = options.logger ?? noopLogger;
    if (typeof options.token === "string") this.tokens.push(options.token);
    const redact = createRedactor(() => this.tokens.flatMap((t) => [t, basicCredentials(t)]));
    this.calls = new GitHubCalls(options.octokit, options.owner, options.repo, redact);
    this.probe = new IssueProbe(this.calls);
    this.pulls = new PullRequests(this.calls, this.logger);
    this.checks = new CheckRuns(this.calls);
    this.config = new RepositoryConfig(this.calls);
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
    return this.calls.apiCalls();
  }

  notModified(): number {
    return this.calls.notModified();
  }

  // ---- issues and comments ----

  async getIssue(number: number): Promise<Issue> {
    const issue = await this.calls.call("issues.get", IssueSchema, () =>
      this.octokit.rest.issues.get({ ...this.repoParams, issue_number: number }),
    );
    return toIssue(issue);
  }

  async listComments(issue: number): Promise<Comment[]> {
    const comments = await this.calls.list(
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
    const view = await readJobView(this.calls, this.repoUrl, issue, head, {
      defaultBranch: (name) => (this.knownDefaultBranch = name),
      config: (text) => this.config.prefetch(text),
      issue: (number, fingerprint) => this.probe.saw(number, fingerprint),
      pullRequest: (number, nodeId, draft) => this.pulls.saw(number, nodeId, draft),
    });
    this.stash = { issue, head, view };
    return view;
  }

  /** A conditional GET of the issue, free when GitHub answers 304 (issue-probe.ts). */
  async issueChanged(number: number): Promise<boolean> {
    this.stash = undefined;
    return this.probe.changed(number);
  }

  async createComment(issue: number, body: string): Promise<Comment> {
    const comment = await this.calls.call("issues.createComment", IssueCommentSchema, () =>
      this.octokit.rest.issues.createComment({
        ...this.repoParams,
        issue_number: issue,
        body: fitComment(body),
      }),
    );
    this.probe.commented(issue);
    return toComment(comment);
  }

  async updateComment(id: number, body: string): Promise<void> {
    await this.calls.call("issues.updateComment", NO_CONTENT, () =>
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
      await this.calls.call("reactions.createForIssueComment", NO_CONTENT, () =>
        this.octokit.rest.reactions.createForIssueComment({
          ...this.repoParams,
          comment_id: target.comment,
          content: reaction,
        }),
      );
    } else {
      await this.calls.call("reactions.createForIssue", NO_CONTENT, () =>
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
      const answer = await this.calls.call(
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
    const repository = await this.calls.call("repos.get", RepositorySchema, () =>
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
          redact: this.calls.redact,
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
    this.checks.pushedCommit(update.sha);
  }

  /** Deleted through git with a lease (push-branch.ts deleteRemoteBranch), never blindly. */
  async deleteBranch(branch: string, expected: string): Promise<void> {
    await deleteRemoteBranch(await this.gitTarget(), branch, expected);
  }

  readBranch(branch: string): Promise<string | null> {
    return this.gitTarget().then((target) => fetchRemoteBranch(target, branch));
  }

  private async gitTarget(): Promise<PushTarget> {
    return {
      repoDir: this.options.repoDir,
      remote: this.options.remote ?? "origin",
      token: await this.pushToken(),
      redact: this.calls.redact,
      logger: this.logger,
    };
  }

  // ---- pull requests (pull-requests.ts) ----

  findPullRequest(head: string): Promise<PullRequest | null> {
    return this.pulls.find(head);
  }

  createPullRequest(request: PullRequestRequest): Promise<PullRequest> {
    return this.pulls.create(request);
  }

  updatePullRequest(number: number, update: { title?: string; body?: string }): Promise<void> {
    return this.pulls.update(number, update);
  }

  markReadyForReview(number: number): Promise<void> {
    return this.pulls.markReady(number);
  }

  closePullRequest(number: number): Promise<void> {
    return this.pulls.close(number);
  }

  requestReview(number: number, logins: string[]): Promise<ReviewRequestResult> {
    return this.pulls.requestReview(number, logins);
  }

  listReviews(number: number): Promise<Review[]> {
    return this.pulls.listReviews(number);
  }

  // ---- checks (check-runs.ts) and config (repository-config.ts) ----

  setCheck(check: CheckUpdate): Promise<void> {
    return this.checks.set(check);
  }

  readConfig(): Promise<string | null> {
    return this.config.read();
  }

  readDefaultBranchFile(path: string): Promise<string | null> {
    return path === CONFIG_PATH ? this.config.read() : this.config.readFile(path);
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
