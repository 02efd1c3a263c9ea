// Approval integrity: a review answers a gate only if its author
// may approve (write access, not a bot, not the PR's author) and it was made on the
// artifact under review. Pure: the caller looks up the blob at the review's commit.

import type { Permission, Review } from "../../ports/forge.js";
import { ACTING_PERMISSIONS } from "../../ports/forge.js";
import { shortSha } from "../../comments/comment-text.js";

export type ReviewJudgement =
  { counts: true; verdict: "approved" | "changes" } | { counts: false; reason: string };

export function judgeReview(input: {
  review: Review;
  permission: Permission;
  approvers: string[];
  prAuthor: string;
  gate: { artifact: string; sha: string; blob: string };
  /** The artifact's blob in the commit the review was made on (null: absent or unknown). */
  blobAtReview: string | null;
}): ReviewJudgement {
  const { review, gate } = input;
  const who = review.author.login;
  if (review.author.type === "Bot") {
    return { counts: false, reason: `a review by a bot (@${who}) does not answer a gate.` };
  }
  if (who === input.prAuthor) {
    return { counts: false, reason: "the pull request's author cannot approve its gate." };
  }
  // Logins are case-insensitive on GitHub; the caller passes approvers lowercased.
  if (
    !input.approvers.includes(who.toLowerCase()) &&
    !ACTING_PERMISSIONS.includes(input.permission)
  ) {
    return {
      counts: false,
      reason: `your review did not count: answering a gate needs write access (you have ${input.permission}).`,
    };
  }
  if (input.blobAtReview === null || input.blobAtReview !== gate.blob) {
    return {
      counts: false,
      reason: `your review of \`${shortSha(review.commitId)}\` did not count: ${gate.artifact} under review is the one at \`${shortSha(gate.sha)}\`; please review that commit.`,
    };
  }
  return { counts: true, verdict: review.state === "APPROVED" ? "approved" : "changes" };
}
