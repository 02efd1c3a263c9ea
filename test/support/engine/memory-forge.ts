// The Forge port held in memory, for the engine's unit tests: an issue, its comments, the
// job's pull request and its reviews, people's permissions — and a list of what the engine
// did (pushes, checks, closed and readied pull requests), so a test can say what happened.
// No git and no HTTP: the local forge (src/adapters/local) and the fake GitHub are where
// those are tested.

import type {
  Actor,
  CheckUpdate,
  Comment,
  Forge,
  Issue,
  JobView,
  Permission,
  PullRequest,
  Review,
} from "../../../src/ports/forge.js";

export const BOT = "cfa-bot[bot]";

export interface MemoryForge extends Forge {
  issue: Issue;
  comments: Comment[];
  reviews: Review[];
  pullRequest: PullRequest | null;
  permissions: Map<string, Permission>;
  /** What the engine did, in order: `push cfa/1 sha1 (expected null)`, `close #5`, … */
  did: string[];
  checks: CheckUpdate[];
  /** The branches the forge holds, at their commits (pushed, or put there by a test). */
  heads: Map<string, string>;
  /** A person (or the bot) comments; returns the comment. */
  comment(login: string, body: string): Comment;
  /** A review of the job's pull request. */
  review(login: string, state: Review["state"], commitId: string, body?: string): Review;
}

const user = (login: string): Actor => ({
  login,
  type: login.endsWith("[bot]") ? "Bot" : "User",
});

export function memoryForge(options: { author?: string; title?: string } = {}): MemoryForge {
  let ids = 100;
  const at = () => "2026-11-22T10:00:00Z";
  const forge: MemoryForge = {
    botLogin: BOT,
    repoUrl: "https://github.com/octo-org/hello-world",
    issue: {
      number: 1,
      title: options.title ?? "Greet",
      body: "Say hello.",
      author: user(options.author ?? "ana"),
      labels: ["cfa"],
      state: "open",
      url: "https://github.com/octo-org/hello-world/issues/1",
    },
    comments: [],
    reviews: [],
    pullRequest: null,
    permissions: new Map([["ana", "write"]]),
    did: [],
    checks: [],
    comment(login, body) {
      const comment = { id: ++ids, author: user(login), body, createdAt: at(), url: `#${ids}` };
      forge.comments.push(comment);
      return comment;
    },
    review(login, state, commitId, body = "") {
      const review = {
        id: ++ids,
        author: user(login),
        state,
        body,
        commitId,
        submittedAt: at(),
        comments: [],
      };
      forge.reviews.push(review);
      return review;
    },
    getIssue: async () => structuredClone(forge.issue),
    listComments: async () => structuredClone(forge.comments),
    readJob: async () =>
      ({
        issue: structuredClone(forge.issue),
        comments: structuredClone(forge.comments),
        pullRequest: forge.pullRequest,
        reviews: structuredClone(forge.reviews),
        labelEvents: [{ label: "cfa", actor: forge.issue.author }],
      }) satisfies JobView,
    issueChanged: async () => true,
    createComment: async (_issue, body) => forge.comment(BOT, body),
    updateComment: async (id, body) => {
      const comment = forge.comments.find((c) => c.id === id);
      if (comment === undefined) throw new Error(`memory forge: no comment ${id}`);
      comment.body = body;
    },
    react: async () => undefined,
    permission: async (login) => forge.permissions.get(login) ?? "read",
    defaultBranch: async () => "main",
    pushBranch: async (branch, { sha, expectedOld }) => {
      forge.did.push(`push ${branch} ${sha} (expected ${expectedOld})`);
      forge.heads.set(branch, sha);
    },
    deleteBranch: async (branch) => {
      forge.did.push(`delete ${branch}`);
      forge.heads.delete(branch);
    },
    // The tests' commits are counted, never made: there is nothing to fetch.
    readBranch: async (branch) => forge.heads.get(branch) ?? null,
    heads: new Map(),
    findPullRequest: async () => forge.pullRequest,
    createPullRequest: async (pr) => {
      forge.pullRequest = {
        number: 5,
        head: pr.head,
        base: pr.base,
        draft: true,
        state: "open",
        url: "https://github.com/octo-org/hello-world/pull/5",
        author: user(BOT),
      };
      forge.did.push(`open #5`);
      return forge.pullRequest;
    },
    updatePullRequest: async () => undefined,
    markReadyForReview: async (number) => {
      forge.did.push(`ready #${number}`);
    },
    closePullRequest: async (number) => {
      forge.did.push(`close #${number}`);
    },
    requestReview: async () => ({ refused: [] }),
    listReviews: async () => structuredClone(forge.reviews),
    setCheck: async (check) => {
      forge.checks.push(check);
    },
    readConfig: async () => null,
    readDefaultBranchFile: async () => null,
  };
  return forge;
}
