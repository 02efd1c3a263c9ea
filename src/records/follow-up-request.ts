// What a person asked of a follow-up (docs/protocol.md#jobs-and-states): a review requesting
// changes on the job's pull request — its body and every inline comment with the file, the
// line and the diff hunk it sits on — or the text of a `/cfa <request>` comment, on the
// issue or on the pull request. Kept in the follow-up's state.json as the engine read it
// (redacted, bounded): the follow-up's leads are given it as data, never as instructions.

import * as z from "zod";

/** At most this many characters of any one text a person wrote are kept. */
export const REQUEST_TEXT_KEPT = 8000;
/** At most this many inline comments of a review are kept (each with its hunk). */
export const INLINE_COMMENTS_KEPT = 50;
/** At most this many characters of an inline comment's diff hunk are kept. */
export const DIFF_HUNK_KEPT = 3000;

export const InlineCommentSchema = z.object({
  path: z.string(),
  line: z.number().int().nullable(),
  body: z.string(),
  /** The pull request's diff around the line, up to it (GitHub's `diff_hunk`); "" if unknown. */
  diffHunk: z.string(),
});
export type InlineComment = z.infer<typeof InlineCommentSchema>;

export const FollowUpRequestSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("review"),
    /** The review's id on the forge. */
    id: z.number().int(),
    by: z.string(),
    at: z.string(),
    /** The commit the reviewer saw. */
    commit: z.string(),
    body: z.string(),
    comments: z.array(InlineCommentSchema),
  }),
  z.object({
    kind: z.literal("comment"),
    /** The comment's id on the forge. */
    id: z.number().int(),
    by: z.string(),
    at: z.string(),
    /** Where it was written: the job's issue, or its pull request. */
    on: z.enum(["issue", "pull"]),
    text: z.string(),
  }),
]);
export type FollowUpRequest = z.infer<typeof FollowUpRequestSchema>;

/** The request as one text: the review's body, then each inline comment with its place. */
export function requestText(request: FollowUpRequest): string {
  if (request.kind === "comment") return request.text;
  const inline = request.comments.map((c) =>
    [
      `- \`${c.path}${c.line === null ? "" : `:${c.line}`}\`: ${c.body}`,
      c.diffHunk === "" ? "" : `  on this part of the diff:\n${fence(c.diffHunk, "  ")}`,
    ]
      .filter((x) => x !== "")
      .join("\n"),
  );
  return [request.body.trim(), inline.length > 0 ? `Inline comments:\n${inline.join("\n")}` : ""]
    .filter((x) => x !== "")
    .join("\n\n");
}

/**
 * The request in a line: a comment's text, or a review's body and where its inline comments
 * sit (`src/a.js:12`), for logs and trees that quote it briefly.
 */
export function requestSummary(request: FollowUpRequest): string {
  if (request.kind === "comment") return request.text.replace(/\s+/g, " ").trim();
  const body = request.body.replace(/\s+/g, " ").trim();
  const places = request.comments.map((c) => `${c.path}${c.line === null ? "" : `:${c.line}`}`);
  return [body, places.length > 0 ? `(inline on ${places.join(", ")})` : ""]
    .filter((x) => x !== "")
    .join(" ");
}

/** A fenced `diff` block whose fence no line of `text` can close. */
function fence(text: string, indent: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/gu)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return [`${ticks}diff`, ...text.split("\n"), ticks].map((l) => `${indent}${l}`).join("\n");
}
