// The local forge: the Forge port over a folder of JSON beside a real local git repository.
// The repository plays GitHub's part too: the job branch lives in it, so "push" only checks
// that the branch holds what the engine committed.

import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { gitClient, type GitClient } from "../../git/git-client.js";
import { CONFIG_PATH } from "../../config/config-schema.js";
import { findDefaultBranch } from "./find-default-branch.js";
import { LocalForgeError } from "./local-forge-error.js";
import { readCommittedFile } from "./read-committed-file.js";
import type {
  Actor,
  CheckUpdate,
  Comment,
  Forge,
  Issue,
  JobView,
  Permission,
  PullRequest,
  Reaction,
  Review,
  ReviewComment,
  ReviewRequestResult,
  ReviewState,
} from "../../ports/forge.js";
import type { Clock } from "../../ports/clock.js";
import { JsonStore } from "./json-store.js";
import {
  LocalForgeDocSchema,
  emptyLocalForgeDoc,
  type LocalForgeDoc,
} from "./local-forge-schema.js";

export const LOCAL_BOT: Actor = { login: "cfa-bot[bot]", type: "Bot" };

export { LocalForgeError };

export interface LocalForgeOptions {
  repoDir: string;
  /** Where the JSON lives; by default `<git common dir>/cfa-local`. */
  dataDir: string;
  clock: Clock;
  /** The person using the local forge; admin on it. */
  person: string;
  /** Hears one line when a lock a dead process left is taken over (json-store.ts). */
  onTakeOver?: (line: string) => void;
  /**
   * `init.defaultBranch` as the person's git reads it, for resolving the default branch the
   * first time (find-default-branch.ts); the entry point reads it.
   */
  initDefaultBranch?: string | null;
}

export class LocalForge implements Forge {
  readonly botLogin = LOCAL_BOT.login;
  readonly repoUrl: string;
  private readonly store: JsonStore<LocalForgeDoc>;
  private readonly git: GitClient;
  private knownDefaultBranch: Promise<string> | undefined;

  constructor(private readonly options: LocalForgeOptions) {
    this.repoUrl = `file://${options.repoDir}`;
    this.git = gitClient(options.repoDir);
    this.store = new JsonStore(
      join(options.dataDir, "forge.json"),
      () => ({ ...emptyLocalForgeDoc(), permissions: { [options.person]: "admin" } }),
      (raw) => LocalForgeDocSchema.parse(raw),
      options.onTakeOver,
    );
  }

  get person(): Actor {
    return { login: this.options.person, type: "User" };
  }

  private now(): string {
    return this.options.clock.now().toISOString();
  }

  // ---- what a person does on the local forge (the `cfa` command's verbs) ----

  async openIssue(request: { title: string; body: string; labels: string[]; author?: Actor }) {
    return this.store.update((doc) => {
      const issue = {
        number: doc.nextNumber++,
        title: request.title,
        body: request.body,
        author: request.author ?? this.person,
        labels: request.labels,
        state: "open" as const,
        createdAt: this.now(),
      };
      doc.issues.push(issue);
      return issue.number;
    });
  }

  async commentAs(author: Actor, issue: number, body: string): Promise<Comment> {
    return this.store.update((doc) => {
      requireIssue(doc, issue);
      const comment = { id: doc.nextId++, issue, author, body, createdAt: this.now() };
      doc.comments.push(comment);
      return this.toComment(comment);
    });
  }

  async submitReview(review: {
    pr: number;
    author: Actor;
    state: ReviewState;
    body: string;
    commitId: string;
    comments?: ReviewComment[];
  }): Promise<Review> {
    return this.store.update((doc) => {
      const pr = doc.pulls.find((p) => p.number === review.pr);
      if (!pr) throw new LocalForgeError(`cfa/local: no pull request #${review.pr}`);
      const stored = {
        id: doc.nextId++,
        pr: review.pr,
        author: review.author,
        state: review.state,
        body: review.body,
        commitId: review.commitId,
        submittedAt: this.now(),
        comments: review.comments ?? [],
      };
      doc.reviews.push(stored);
      return { ...stored };
    });
  }

  async closeIssue(issue: number): Promise<void> {
    await this.store.update((doc) => {
      requireIssue(doc, issue).state = "closed";
    });
  }

  async setPermission(login: string, permission: Permission): Promise<void> {
    await this.store.update((doc) => {
      doc.permissions[login] = permission;
    });
  }

  async listIssues(): Promise<Issue[]> {
    const doc = await this.store.read();
    return doc.issues.map((i) => this.toIssue(i));
  }

  async listChecks(): Promise<CheckUpdate[]> {
    const doc = await this.store.read();
    return doc.checks.map((c) => ({ ...c }) as CheckUpdate);
  }

  async listReactions() {
    return (await this.store.read()).reactions;
  }

  async getPullRequest(number: number) {
    const doc = await this.store.read();
    const pr = doc.pulls.find((p) => p.number === number);
    return pr ? { ...pr, url: this.pullUrl(pr.number) } : null;
  }

  // ---- the Forge port ----

  async getIssue(number: number): Promise<Issue> {
    const doc = await this.store.read();
    return this.toIssue(requireIssue(doc, number));
  }

  async listComments(issue: number): Promise<Comment[]> {
    const doc = await this.store.read();
    return doc.comments.filter((c) => c.issue === issue).map((c) => this.toComment(c));
  }

  async createComment(issue: number, body: string): Promise<Comment> {
    return this.commentAs(LOCAL_BOT, issue, body);
  }

  async updateComment(id: number, body: string): Promise<void> {
    await this.store.update((doc) => {
      const comment = doc.comments.find((c) => c.id === id);
      if (!comment) throw new LocalForgeError(`cfa/local: no comment ${id}`);
      comment.body = body;
    });
  }

  async react(target: { comment: number } | { issue: number }, reaction: Reaction) {
    const key = "comment" in target ? `comment:${target.comment}` : `issue:${target.issue}`;
    await this.store.update((doc) => {
      if (!doc.reactions.some((r) => r.target === key && r.reaction === reaction)) {
        doc.reactions.push({ target: key, reaction, by: this.botLogin });
      }
    });
  }

  async permission(login: string): Promise<Permission> {
    const doc = await this.store.read();
    return doc.permissions[login] ?? "none";
  }

  /**
   * The default branch as first resolved (find-default-branch.ts) and recorded in the forge's
   * document, never the checkout's HEAD: what the person has checked out — a job branch, or
   * a branch made from one to try it — changes nothing of what configuration is read from.
   */
  async defaultBranch(): Promise<string> {
    this.knownDefaultBranch ??= this.recordedDefaultBranch().catch((error: unknown) => {
      this.knownDefaultBranch = undefined;
      throw error;
    });
    return this.knownDefaultBranch;
  }

  private async recordedDefaultBranch(): Promise<string> {
    const recorded = (await this.store.read()).defaultBranch;
    if (recorded !== undefined) return recorded;
    const found = await findDefaultBranch(this.git, {
      initDefaultBranch: this.options.initDefaultBranch ?? null,
    });
    // Two processes may resolve it at once: the first recorded wins for both.
    return this.store.update((doc) => (doc.defaultBranch ??= found));
  }

  async pushBranch(branch: string, update: { sha: string; expectedOld: string | null }) {
    // The job branch is committed in place; "publishing" it means it must hold that commit.
    // A commit leaves its branch as a loose ref file, which outranks a packed one
    // (https://git-scm.com/docs/git-pack-refs): when that file holds the commit, the check is
    // done without a git process (one fewer a commit); otherwise git is asked.
    if ((await this.looseRef(branch)) === update.sha) return;
    const actual = (await this.git.raw(["rev-parse", "--verify", `refs/heads/${branch}`])).trim();
    if (actual !== update.sha) {
      throw new LocalForgeError(
        `cfa/local: branch ${branch} is at ${actual.slice(0, 7)}, expected ${update.sha.slice(0, 7)}`,
      );
    }
  }

  /** `refs/heads/<branch>` as a loose ref of the repository's own `.git` folder, or null. */
  private async looseRef(branch: string): Promise<string | null> {
    try {
      const dotGit = join(this.options.repoDir, ".git");
      if (!(await stat(dotGit)).isDirectory()) return null;
      const text = await readFile(join(dotGit, "refs", "heads", ...branch.split("/")), "utf8");
      return /^[0-9a-f]{40,64}\n$/u.test(text) ? text.trim() : null;
    } catch {
      return null;
    }
  }

  async deleteBranch(branch: string, expected: string): Promise<void> {
    const exists = (await this.git.raw(["branch", "--list", branch])).trim() !== "";
    // The lease: update-ref deletes only while the branch is still at `expected`.
    if (exists) await this.git.raw(["update-ref", "-d", `refs/heads/${branch}`, expected]);
  }

  /** The job's branches live in the repository itself: what it holds is what the forge holds. */
  async readBranch(branch: string): Promise<string | null> {
    try {
      return (
        (await this.git.raw(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`])).trim() ||
        null
      );
    } catch {
      return null;
    }
  }

  async findPullRequest(head: string): Promise<PullRequest | null> {
    const doc = await this.store.read();
    const pr =
      doc.pulls.find((p) => p.head === head && p.state === "open") ??
      doc.pulls.find((p) => p.head === head);
    return pr ? this.toPull(pr) : null;
  }

  async createPullRequest(request: {
    head: string;
    base: string;
    title: string;
    body: string;
    draft: boolean;
  }): Promise<PullRequest> {
    return this.store.update((doc) => {
      if (doc.pulls.some((p) => p.head === request.head && p.state === "open")) {
        throw new LocalForgeError(`cfa/local: a pull request from ${request.head} is already open`);
      }
      const pr = {
        number: doc.nextNumber++,
        ...request,
        state: "open" as const,
        reviewers: [],
        author: LOCAL_BOT,
      };
      doc.pulls.push(pr);
      return this.toPull(pr);
    });
  }

  async updatePullRequest(number: number, update: { title?: string; body?: string }) {
    await this.store.update((doc) => {
      const pr = requirePull(doc, number);
      if (update.title !== undefined) pr.title = update.title;
      if (update.body !== undefined) pr.body = update.body;
    });
  }

  async markReadyForReview(number: number): Promise<void> {
    await this.store.update((doc) => {
      requirePull(doc, number).draft = false;
    });
  }

  async closePullRequest(number: number): Promise<void> {
    await this.store.update((doc) => {
      requirePull(doc, number).state = "closed";
    });
  }

  async requestReview(number: number, logins: string[]): Promise<ReviewRequestResult> {
    await this.store.update((doc) => {
      const pr = requirePull(doc, number);
      for (const login of logins) if (!pr.reviewers.includes(login)) pr.reviewers.push(login);
    });
    return { refused: [] };
  }

  /** The same reads one by one: the JSON is on this machine, nothing to save. */
  async readJob(issue: number, head: string): Promise<JobView> {
    const pullRequest = await this.findPullRequest(head);
    return {
      issue: await this.getIssue(issue),
      comments: await this.listComments(issue),
      pullRequest,
      reviews: pullRequest === null ? [] : await this.listReviews(pullRequest.number),
      labelEvents: [],
    };
  }

  /** Reading the JSON again costs nothing: always "maybe". */
  async issueChanged(_issue: number): Promise<boolean> {
    return true;
  }

  async listReviews(number: number): Promise<Review[]> {
    const doc = await this.store.read();
    return doc.reviews
      .filter((r) => r.pr === number)
      .map(({ pr: _pr, ...review }) => ({ ...review, comments: [...review.comments] }));
  }

  async setCheck(check: CheckUpdate): Promise<void> {
    await this.store.update((doc) => {
      const existing = doc.checks.find((c) => c.name === check.name && c.sha === check.sha);
      if (existing) Object.assign(existing, check);
      else doc.checks.push({ ...check });
    });
  }

  readConfig(): Promise<string | null> {
    return this.readDefaultBranchFile(CONFIG_PATH);
  }

  /**
   * A file of the default branch's tip, as committed (never the working tree, never HEAD):
   * null when absent; refused in one line when it is a folder, a link or a submodule.
   */
  async readDefaultBranchFile(path: string): Promise<string | null> {
    const base = await this.defaultBranch();
    return readCommittedFile(this.git, `refs/heads/${base}`, path);
  }

  // ---- mapping ----

  private toIssue(issue: LocalForgeDoc["issues"][number]): Issue {
    return {
      number: issue.number,
      title: issue.title,
      body: issue.body,
      author: issue.author,
      labels: [...issue.labels],
      state: issue.state,
      url: `${this.repoUrl}#issue-${issue.number}`,
    };
  }

  private toComment(comment: LocalForgeDoc["comments"][number]): Comment {
    return {
      id: comment.id,
      author: comment.author,
      body: comment.body,
      createdAt: comment.createdAt,
      url: `${this.repoUrl}#comment-${comment.id}`,
    };
  }

  private toPull(pr: LocalForgeDoc["pulls"][number]): PullRequest {
    return {
      number: pr.number,
      head: pr.head,
      base: pr.base,
      draft: pr.draft,
      state: pr.state,
      url: this.pullUrl(pr.number),
      author: pr.author,
    };
  }

  private pullUrl(number: number): string {
    return `${this.repoUrl}#pull-${number}`;
  }
}

function requireIssue(doc: LocalForgeDoc, number: number) {
  const issue = doc.issues.find((i) => i.number === number);
  if (!issue) throw new LocalForgeError(`cfa/local: no issue #${number}`);
  return issue;
}

function requirePull(doc: LocalForgeDoc, number: number) {
  const pr = doc.pulls.find((p) => p.number === number);
  if (!pr) throw new LocalForgeError(`cfa/local: no pull request #${number}`);
  return pr;
}
