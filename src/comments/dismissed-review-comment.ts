// The one line a dismissed gate review gets. Branch protection's "Dismiss stale
// pull request approvals when new commits are pushed" dismisses a gate's approval as soon as
// the job pushes its next phase, and a person may dismiss a review by hand: either way the
// reviewer hears what it means for the job, once per review (found again by its block).
// https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/managing-a-branch-protection-rule

import { withHiddenBlock, type HiddenBlock } from "./hidden-block.js";
import { ownMention } from "./own-marks.js";

export const DISMISSED_REVIEW_KIND = "review-dismissed";

export function dismissedReviewComment(input: {
  job: number;
  review: number;
  reviewer: string;
  dismissedBy: string;
  commit: string | null;
}): string {
  const at = input.commit === null ? "" : ` of \`${input.commit.slice(0, 7)}\``;
  const by =
    input.dismissedBy.toLowerCase() === input.reviewer.toLowerCase()
      ? ""
      : ` (dismissed by @\u200b${input.dismissedBy})`;
  return withHiddenBlock(
    `${ownMention(input.reviewer)}: your review${at} on job #${input.job}'s pull request was dismissed${by}. A gate it already answered stays answered: a job never goes back on a gate. If it was for the gate open now, review that gate's commit again.`,
    { v: 1, job: input.job, kind: DISMISSED_REVIEW_KIND, review: input.review },
  );
}

export function isSameDismissal(review: number) {
  return (block: HiddenBlock): boolean =>
    block.kind === DISMISSED_REVIEW_KIND && block.review === review;
}
