// GitHub's shapes → the port's. Pure functions over validated responses.

import type * as z from "zod";
import {
  REVIEW_STATES,
  type Actor,
  type Comment,
  type Issue,
  type PullRequest,
  type Review,
  type ReviewComment,
  type ReviewState,
} from "../../ports/forge.js";
import type {
  IssueCommentSchema,
  IssueSchema,
  PullRequestSchema,
  ReviewCommentSchema,
  ReviewSchema,
  UserSchema,
} from "./response-schemas.js";

/** GitHub shows a deleted account as "ghost"; some endpoints send `user: null` instead. */
export const GHOST: Actor = { login: "ghost", type: "User" };

export function toActor(user: z.infer<typeof UserSchema>): Actor {
  if (user === null) return GHOST;
  // "Mannequin" (an imported, unclaimed author) and anything newer count as people: they
  // still have to pass the live permission check to act.
  const type = user.type === "Bot" || user.type === "Organization" ? user.type : "User";
  return { login: user.login, type };
}

export function toIssue(issue: z.infer<typeof IssueSchema>): Issue {
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body ?? "",
    author: toActor(issue.user),
    labels: issue.labels.flatMap((label) => {
      const name = typeof label === "string" ? label : label.name;
      return name ? [name] : [];
    }),
    state: issue.state,
    url: issue.html_url,
    ...(issue.pull_request === undefined || issue.pull_request === null
      ? {}
      : { isPullRequest: true }),
  };
}

export function toComment(comment: z.infer<typeof IssueCommentSchema>): Comment {
  return {
    id: comment.id,
    author: toActor(comment.user),
    body: comment.body ?? "",
    createdAt: comment.created_at,
    url: comment.html_url,
  };
}

export function toPullRequest(pr: z.infer<typeof PullRequestSchema>): PullRequest {
  return {
    number: pr.number,
    head: pr.head.ref,
    base: pr.base.ref,
    draft: pr.draft ?? false,
    state: pr.state,
    ...(pr.merged_at ? { merged: true } : {}),
    url: pr.html_url,
    author: toActor(pr.user),
  };
}

export function isReviewState(state: string): state is ReviewState {
  return (REVIEW_STATES as readonly string[]).includes(state);
}

/** Null for a review the port has no state for (PENDING: an unsubmitted draft). */
export function toReview(
  review: z.infer<typeof ReviewSchema>,
  comments: ReviewComment[],
): Review | null {
  if (!isReviewState(review.state)) return null;
  return {
    id: review.id,
    author: toActor(review.user),
    state: review.state,
    body: review.body ?? "",
    // A review without a commit cannot be on the gate's artifact: "" never matches one.
    commitId: review.commit_id ?? "",
    submittedAt: review.submitted_at ?? "",
    comments,
  };
}

export function toReviewComment(comment: z.infer<typeof ReviewCommentSchema>): ReviewComment {
  return {
    path: comment.path,
    // An outdated comment has no `line` on the current diff; `original_line` is the line on
    // the commit the reviewer saw, which is the one a gate review is judged on.
    line: comment.line ?? comment.original_line ?? null,
    body: comment.body ?? "",
    ...(comment.diff_hunk ? { diffHunk: comment.diff_hunk } : {}),
  };
}
