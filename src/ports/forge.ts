// The Forge port: what the engine needs of GitHub. The GitHub adapter maps it
// onto the REST API; the local adapter keeps the same things in JSON beside a local git
// repository, so every engine behaviour can be exercised without a network.

export const PERMISSIONS = ["admin", "maintain", "write", "triage", "read", "none"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Permissions that may act on a job: start it, approve a gate, answer, withdraw, intervene. */
export const ACTING_PERMISSIONS: readonly Permission[] = ["admin", "maintain", "write"];

export interface Actor {
  login: string;
  /** GitHub's account type; "Bot" for apps and bots. */
  type: "User" | "Bot" | "Organization";
}

export interface Issue {
  number: number;
  title: string;
  body: string;
  author: Actor;
  labels: string[];
  state: "open" | "closed";
  url: string;
  /** GitHub numbers pull requests as issues: true when this number is one. */
  isPullRequest?: boolean;
}

export interface Comment {
  id: number;
  author: Actor;
  body: string;
  createdAt: string;
  url: string;
}

export const REVIEW_STATES = ["APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export interface ReviewComment {
  path: string;
  line: number | null;
  body: string;
  /**
   * The pull request's diff the comment sits on, from the hunk's header down to its line
   * (GitHub's `diff_hunk`). Absent where the forge does not say.
   */
  diffHunk?: string;
}

export interface Review {
  id: number;
  author: Actor;
  state: ReviewState;
  body: string;
  /** The commit the reviewer saw: only a review on the gate's artifact counts. */
  commitId: string;
  submittedAt: string;
  comments: ReviewComment[];
}

export interface PullRequest {
  number: number;
  head: string;
  base: string;
  draft: boolean;
  state: "open" | "closed";
  /** Closed by a merge (GitHub's `merged`); absent or false otherwise. */
  merged?: boolean;
  url: string;
  author: Actor;
}

export const CHECK_NAMES = ["cfa/intent", "cfa/plan", "cfa/execute"] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export interface CheckUpdate {
  name: CheckName;
  sha: string;
  status: "in_progress" | "completed";
  conclusion?: "success" | "failure" | "cancelled" | "neutral";
  /** The run's title when it says more than its status (a paused job, say). */
  title?: string;
  summary: string;
}

/** Who added a label to the issue, newest last (a job starts on the `labeled` event's actor). */
export interface LabelEvent {
  label: string;
  actor: Actor;
}

/**
 * What a wake reads about a job, in one go where the forge can (GitHub: one GraphQL query):
 * the issue, its comments, the job's pull request and that pull request's reviews.
 */
export interface JobView {
  issue: Issue;
  comments: Comment[];
  /** The pull request from `head`: the open one, else the newest; null when there is none. */
  pullRequest: PullRequest | null;
  /** Its reviews, oldest first, with the inline comments of change requests. */
  reviews: Review[];
  /**
   * The pull request's own conversation comments, oldest first (`/cfa` is read there too).
   * Absent where the forge does not read them with the view: listComments(pr) then.
   */
  pullComments?: Comment[];
  labelEvents: LabelEvent[];
}

/** Reviewers a review could not be requested from, each with GitHub's reason. */
export interface ReviewRequestResult {
  refused: { login: string; reason: string }[];
}

export const REACTIONS = ["+1", "-1", "eyes", "rocket", "confused", "hooray"] as const;
export type Reaction = (typeof REACTIONS)[number];

export interface Forge {
  /** The login the bot posts as; its own comments are recognised by it and by the hidden block. */
  readonly botLogin: string;
  /** Where a person reads the repository (for links in comments). */
  readonly repoUrl: string;

  getIssue(number: number): Promise<Issue>;
  listComments(issue: number): Promise<Comment[]>;
  /** The issue, its comments, the pull request from `head` and its reviews (see JobView). */
  readJob(issue: number, head: string): Promise<JobView>;
  /**
   * Whether the issue (its comments, state, labels) may have changed since this forge last
   * read it. Cheap where the forge allows: on GitHub a conditional request, whose 304 does not
   * count against the rate limit. A forge that cannot tell answers true.
   */
  issueChanged(issue: number): Promise<boolean>;
  createComment(issue: number, body: string): Promise<Comment>;
  updateComment(id: number, body: string): Promise<void>;
  react(target: { comment: number } | { issue: number }, reaction: Reaction): Promise<void>;
  permission(login: string): Promise<Permission>;

  defaultBranch(): Promise<string>;
  /**
   * Publishes the local branch with a lease: `expectedOld` is the commit the forge's branch
   * must still be at; null means it must not exist — only for a branch never published
   * (an empty lease would re-create a branch someone deleted). A refused lease throws
   * PushRejectedError (adapters/github) and changes nothing.
   */
  pushBranch(branch: string, update: { sha: string; expectedOld: string | null }): Promise<void>;
  /** Deletes the branch if it is still at `expected` (a lease); one already gone is done. */
  deleteBranch(branch: string, expected: string): Promise<void>;
  /**
   * The branch as the forge holds it now, its commit present in the local repository
   * afterwards (fetched); null when the forge has no such branch.
   */
  readBranch(branch: string): Promise<string | null>;

  findPullRequest(head: string): Promise<PullRequest | null>;
  createPullRequest(pr: {
    head: string;
    base: string;
    title: string;
    body: string;
    draft: boolean;
  }): Promise<PullRequest>;
  updatePullRequest(number: number, update: { title?: string; body?: string }): Promise<void>;
  markReadyForReview(number: number): Promise<void>;
  closePullRequest(number: number): Promise<void>;
  /** Requests reviews; a login GitHub refuses (not a collaborator, the PR's author) is returned. */
  requestReview(number: number, logins: string[]): Promise<ReviewRequestResult>;
  listReviews(number: number): Promise<Review[]>;

  setCheck(check: CheckUpdate): Promise<void>;
  /** The text of `.github/cfa.yml` on the default branch, or null when absent. */
  readConfig(): Promise<string | null>;
  /**
   * The one way to read a "default branch only" input (configuration, setup, repository
   * instructions, `.mcp.json`): the text of `path` (relative to the root, `/`-separated) as
   * the default branch's tip holds it — on GitHub the contents API without `ref`, locally
   * the branch the forge recorded (never the checkout's HEAD or working tree). Null when
   * absent; throws, naming the path, when it is a folder, a link or too large.
   */
  readDefaultBranchFile(path: string): Promise<string | null>;
}
