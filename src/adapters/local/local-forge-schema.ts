// The local forge's document: GitHub's issue, comment, review and pull-request records,
// kept in one JSON file beside a local repository.

import * as z from "zod";
import { PERMISSIONS, REVIEW_STATES } from "../../ports/forge.js";

const ActorSchema = z.object({
  login: z.string(),
  type: z.enum(["User", "Bot", "Organization"]),
});

export const LocalForgeDocSchema = z.object({
  v: z.literal(1),
  /** Comments and reviews share one increasing id sequence: the engine's cursors rely on it. */
  nextId: z.number().int().positive(),
  nextNumber: z.number().int().positive(),
  issues: z.array(
    z.object({
      number: z.number().int(),
      title: z.string(),
      body: z.string(),
      author: ActorSchema,
      labels: z.array(z.string()),
      state: z.enum(["open", "closed"]),
      createdAt: z.string(),
    }),
  ),
  comments: z.array(
    z.object({
      id: z.number().int(),
      issue: z.number().int(),
      author: ActorSchema,
      body: z.string(),
      createdAt: z.string(),
    }),
  ),
  pulls: z.array(
    z.object({
      number: z.number().int(),
      head: z.string(),
      base: z.string(),
      title: z.string(),
      body: z.string(),
      draft: z.boolean(),
      state: z.enum(["open", "closed"]),
      reviewers: z.array(z.string()),
      author: ActorSchema,
    }),
  ),
  reviews: z.array(
    z.object({
      id: z.number().int(),
      pr: z.number().int(),
      author: ActorSchema,
      state: z.enum(REVIEW_STATES),
      body: z.string(),
      commitId: z.string(),
      submittedAt: z.string(),
      comments: z.array(
        z.object({ path: z.string(), line: z.number().nullable(), body: z.string() }),
      ),
    }),
  ),
  reactions: z.array(z.object({ target: z.string(), reaction: z.string(), by: z.string() })),
  checks: z.array(
    z.object({
      name: z.string(),
      sha: z.string(),
      status: z.string(),
      conclusion: z.string().optional(),
      summary: z.string(),
    }),
  ),
  permissions: z.record(z.string(), z.enum(PERMISSIONS)),
  /**
   * The repository's default branch, resolved once (find-default-branch.ts) and kept, as
   * GitHub keeps it as a setting: never re-read from the checkout. Absent until first asked.
   */
  defaultBranch: z.string().optional(),
});
export type LocalForgeDoc = z.infer<typeof LocalForgeDocSchema>;

export function emptyLocalForgeDoc(): LocalForgeDoc {
  return {
    v: 1,
    nextId: 1,
    nextNumber: 1,
    issues: [],
    comments: [],
    pulls: [],
    reviews: [],
    reactions: [],
    checks: [],
    permissions: {},
  };
}
