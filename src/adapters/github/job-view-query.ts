// One GraphQL query for what a wake reads, to spare the rate limit: the issue with its labels, who
// labelled it, its comments, the job's pull request with its reviews and their inline
// comments, the default branch and `.github/cfa.yml`. Over REST that is six to ten calls.
// Shapes: GitHub's GraphQL schema (@octokit/graphql-schema); every field read is validated.
//
// GraphQL names a bot without the "[bot]" REST shows ("github-actions", not
// "github-actions[bot]"): toActor() puts it back, or the bot would not know its own comments.

import * as z from "zod";
import type {
  Actor,
  Comment,
  Issue,
  LabelEvent,
  PullRequest,
  Review,
  ReviewComment,
} from "../../ports/forge.js";
import { isReviewState } from "./map-responses.js";

/** Comments and reviews come a hundred to a page (GitHub's limit); older pages on demand. */
export const PAGE = 100;

export const JOB_VIEW_QUERY = `query cfaJobView($owner: String!, $repo: String!, $issue: Int!, $head: String!, $config: String!, $commentsBefore: String) {
  repository(owner: $owner, name: $repo) {
    defaultBranchRef { name }
    config: object(expression: $config) {
      __typename
      ... on Blob { text isTruncated byteSize }
    }
    issueOrPullRequest(number: $issue) {
      __typename
      ... on Issue {
        number title body state url
        author { __typename login }
        labels(first: 100) { nodes { name } }
        timelineItems(itemTypes: [LABELED_EVENT], last: 50) {
          nodes { ... on LabeledEvent { actor { __typename login } label { name } } }
        }
        comments(last: ${PAGE}, before: $commentsBefore) {
          totalCount
          pageInfo { hasPreviousPage startCursor }
          nodes { ...cfaComment }
        }
      }
    }
    pullRequests(headRefName: $head, first: 5, orderBy: { field: CREATED_AT, direction: DESC }) {
      nodes {
        id number state isDraft url headRefName baseRefName
        author { __typename login }
        comments(last: ${PAGE}) {
          pageInfo { hasPreviousPage startCursor }
          nodes { ...cfaComment }
        }
        reviews(last: ${PAGE}) {
          pageInfo { hasPreviousPage startCursor }
          nodes { ...cfaReview }
        }
      }
    }
  }
}
fragment cfaComment on IssueComment { fullDatabaseId author { __typename login } body createdAt url }
fragment cfaReview on PullRequestReview {
  fullDatabaseId state body submittedAt
  author { __typename login }
  commit { oid }
  comments(first: ${PAGE}) { nodes { path line originalLine body diffHunk } }
}`;

/** REST cannot clear a pull request's `draft` (pulls/update ignores it); this can, by node id. */
export const MARK_READY_MUTATION = `mutation cfaMarkReady($pullRequestId: ID!) {
  markPullRequestReadyForReview(input: { pullRequestId: $pullRequestId }) {
    pullRequest { isDraft }
  }
}`;

/** Older comments of a long issue, a page at a time. */
export const OLDER_COMMENTS_QUERY = `query cfaOlderComments($owner: String!, $repo: String!, $issue: Int!, $before: String!) {
  repository(owner: $owner, name: $repo) {
    issue(number: $issue) {
      comments(last: ${PAGE}, before: $before) {
        pageInfo { hasPreviousPage startCursor }
        nodes { fullDatabaseId author { __typename login } body createdAt url }
      }
    }
  }
}`;

/** Older reviews of a pull request, a page at a time. */
export const OLDER_REVIEWS_QUERY = `query cfaOlderReviews($id: ID!, $before: String!) {
  node(id: $id) {
    ... on PullRequest {
      reviews(last: ${PAGE}, before: $before) {
        pageInfo { hasPreviousPage startCursor }
        nodes {
          fullDatabaseId state body submittedAt
          author { __typename login }
          commit { oid }
          comments(first: ${PAGE}) { nodes { path line originalLine body diffHunk } }
        }
      }
    }
  }
}`;

const ActorSchema = z.object({ __typename: z.string(), login: z.string() }).nullable();
const PageInfoSchema = z.object({
  hasPreviousPage: z.boolean(),
  startCursor: z.string().nullable(),
});
/** BigInt arrives as a string; ids are far below 2^53. */
const IdSchema = z.union([z.string(), z.number()]).transform(Number);

const CommentNodeSchema = z.object({
  fullDatabaseId: IdSchema,
  author: ActorSchema,
  body: z.string(),
  createdAt: z.string(),
  url: z.string(),
});
export const CommentPageSchema = z.object({
  pageInfo: PageInfoSchema,
  nodes: z.array(CommentNodeSchema.nullable()),
});

const ReviewNodeSchema = z.object({
  fullDatabaseId: IdSchema,
  state: z.string(),
  body: z.string(),
  submittedAt: z.string().nullable(),
  author: ActorSchema,
  commit: z.object({ oid: z.string() }).nullable(),
  comments: z.object({
    nodes: z.array(
      z
        .object({
          path: z.string(),
          line: z.number().nullable(),
          originalLine: z.number().nullable(),
          body: z.string(),
          diffHunk: z.string().optional(),
        })
        .nullable(),
    ),
  }),
});
export const ReviewPageSchema = z.object({
  pageInfo: PageInfoSchema,
  nodes: z.array(ReviewNodeSchema.nullable()),
});

const PullRequestNodeSchema = z.object({
  id: z.string(),
  number: z.number(),
  state: z.enum(["OPEN", "CLOSED", "MERGED"]),
  isDraft: z.boolean(),
  url: z.string(),
  headRefName: z.string(),
  baseRefName: z.string(),
  author: ActorSchema,
  /** Its conversation's comments, the newest page: `/cfa` is read there (job-view.ts). */
  comments: CommentPageSchema.optional(),
  reviews: ReviewPageSchema,
});

const IssueNodeSchema = z.object({
  __typename: z.literal("Issue"),
  number: z.number(),
  title: z.string(),
  body: z.string(),
  state: z.enum(["OPEN", "CLOSED"]),
  url: z.string(),
  author: ActorSchema,
  labels: z.object({ nodes: z.array(z.object({ name: z.string() }).nullable()) }).nullable(),
  timelineItems: z.object({
    nodes: z.array(
      z
        .object({
          actor: ActorSchema.optional(),
          label: z.object({ name: z.string() }).optional(),
        })
        .nullable(),
    ),
  }),
  comments: CommentPageSchema.extend({ totalCount: z.number() }),
});

export const JobViewDataSchema = z.object({
  repository: z.object({
    defaultBranchRef: z.object({ name: z.string() }).nullable(),
    config: z
      .object({
        __typename: z.string(),
        text: z.string().nullish(),
        isTruncated: z.boolean().optional(),
        byteSize: z.number().optional(),
      })
      .nullable(),
    issueOrPullRequest: z
      .union([IssueNodeSchema, z.object({ __typename: z.literal("PullRequest") })])
      .nullable(),
    pullRequests: z.object({ nodes: z.array(PullRequestNodeSchema.nullable()) }),
  }),
});
export type JobViewData = z.infer<typeof JobViewDataSchema>;
export type PullRequestNode = z.infer<typeof PullRequestNodeSchema>;

export const OlderCommentsSchema = z.object({
  repository: z.object({ issue: z.object({ comments: CommentPageSchema }).nullable() }),
});
export const OlderReviewsSchema = z.object({
  node: z.object({ reviews: ReviewPageSchema }).nullable(),
});

const GHOST: Actor = { login: "ghost", type: "User" };

/** GraphQL's actor → the port's; a bot gets its "[bot]" back, a deleted account is ghost. */
export function toGraphqlActor(actor: z.infer<typeof ActorSchema> | undefined): Actor {
  if (actor === null || actor === undefined) return GHOST;
  if (actor.__typename === "Bot") {
    return {
      login: actor.login.endsWith("[bot]") ? actor.login : `${actor.login}[bot]`,
      type: "Bot",
    };
  }
  // Mannequin and EnterpriseUserAccount act as people; they pass the permission check or not.
  return {
    login: actor.login,
    type: actor.__typename === "Organization" ? "Organization" : "User",
  };
}

export function toGraphqlComment(node: z.infer<typeof CommentNodeSchema>): Comment {
  return {
    id: node.fullDatabaseId,
    author: toGraphqlActor(node.author),
    body: node.body,
    createdAt: node.createdAt,
    url: node.url,
  };
}

/** Null for a review the port has no state for (PENDING: a draft only its author sees). */
export function toGraphqlReview(node: z.infer<typeof ReviewNodeSchema>): Review | null {
  if (!isReviewState(node.state)) return null;
  const comments: ReviewComment[] =
    node.state === "CHANGES_REQUESTED"
      ? node.comments.nodes.flatMap((c) =>
          c === null
            ? []
            : [
                {
                  path: c.path,
                  line: c.line ?? c.originalLine,
                  body: c.body,
                  ...(c.diffHunk ? { diffHunk: c.diffHunk } : {}),
                },
              ],
        )
      : [];
  return {
    id: node.fullDatabaseId,
    author: toGraphqlActor(node.author),
    state: node.state,
    body: node.body,
    // A review without a commit cannot be on the gate's artifact: "" never matches one.
    commitId: node.commit?.oid ?? "",
    submittedAt: node.submittedAt ?? "",
    comments,
  };
}

export function toGraphqlPullRequest(node: PullRequestNode): PullRequest {
  return {
    number: node.number,
    head: node.headRefName,
    base: node.baseRefName,
    draft: node.isDraft,
    state: node.state === "OPEN" ? "open" : "closed",
    ...(node.state === "MERGED" ? { merged: true } : {}),
    url: node.url,
    author: toGraphqlActor(node.author),
  };
}

export function toGraphqlIssue(node: z.infer<typeof IssueNodeSchema>): Issue {
  return {
    number: node.number,
    title: node.title,
    body: node.body,
    author: toGraphqlActor(node.author),
    labels: (node.labels?.nodes ?? []).flatMap((l) => (l === null ? [] : [l.name])),
    state: node.state === "OPEN" ? "open" : "closed",
    url: node.url,
  };
}

export function toLabelEvents(node: z.infer<typeof IssueNodeSchema>): LabelEvent[] {
  return node.timelineItems.nodes.flatMap((n) =>
    n?.label === undefined ? [] : [{ label: n.label.name, actor: toGraphqlActor(n.actor) }],
  );
}
