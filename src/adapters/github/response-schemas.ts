// The fields of GitHub's responses the forge relies on, validated where they enter
// (docs/contributing.md, "Conventions"). Everything else GitHub sends is dropped. Shapes follow GitHub's
// OpenAPI description (@octokit/openapi-types).

import * as z from "zod";

/** `simple-user`; null for a deleted account on some endpoints. */
export const UserSchema = z.object({ login: z.string(), type: z.string() }).nullable();

export const IssueSchema = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullish(),
  user: UserSchema,
  labels: z.array(z.union([z.string(), z.object({ name: z.string().nullish() })])),
  state: z.enum(["open", "closed"]),
  html_url: z.string(),
  /** How many comments the issue has (conditional reads compare it). */
  comments: z.number().optional(),
  /** Present when the number is a pull request's. */
  pull_request: z.unknown().optional(),
});

export const IssueCommentSchema = z.object({
  id: z.number(),
  user: UserSchema,
  body: z.string().nullish(),
  created_at: z.string(),
  html_url: z.string(),
});

export const RepositorySchema = z.object({ default_branch: z.string() });

export const CollaboratorPermissionSchema = z.object({
  permission: z.string(),
  role_name: z.string().nullish(),
});

export const PullRequestSchema = z.object({
  number: z.number(),
  node_id: z.string(),
  head: z.object({ ref: z.string() }),
  base: z.object({ ref: z.string() }),
  draft: z.boolean().nullish(),
  state: z.enum(["open", "closed"]),
  // When it was merged (pulls list and get both carry it): set means merged, not only closed
  // (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests).
  merged_at: z.string().nullish(),
  html_url: z.string(),
  user: UserSchema,
});

export const ReviewSchema = z.object({
  id: z.number(),
  user: UserSchema,
  body: z.string().nullish(),
  state: z.string(),
  commit_id: z.string().nullish(),
  submitted_at: z.string().nullish(),
});

/** `review-comment`, as returned by pulls/list-comments-for-review. */
export const ReviewCommentSchema = z.object({
  path: z.string(),
  body: z.string().nullish(),
  // "The diff of the line that the comment refers to"
  // (https://docs.github.com/en/rest/pulls/comments#list-comments-for-a-pull-request-review).
  diff_hunk: z.string().nullish(),
  line: z.number().nullish(),
  original_line: z.number().nullish(),
});

export const CheckRunSchema = z.object({ id: z.number(), name: z.string(), head_sha: z.string() });

export const CheckRunListSchema = z.object({ check_runs: z.array(CheckRunSchema) });

/** repos/get-content: a file, or (for a directory) an array, or a symlink/submodule. */
export const ContentSchema = z.union([
  z.array(z.unknown()),
  z.object({
    type: z.string(),
    encoding: z.string().optional(),
    content: z.string().optional(),
    size: z.number().optional(),
  }),
]);

export const MarkReadySchema = z.object({
  markPullRequestReadyForReview: z.object({
    pullRequest: z.object({ isDraft: z.boolean() }).nullish(),
  }),
});
