// The one reply a person without authority gets for a command or a review:
// posted by the app, which judged their live permission before any dispatch, so no worker
// run starts for them. Found again by its hidden block, so a redelivery, an edit of the
// same comment, or a worker that reads the comment later never answers it a second time
// (the worker skips what the app refused: src/worker/skip-refused.ts).

import { ownMention } from "./own-marks.js";
import { withHiddenBlock, type HiddenBlock } from "./hidden-block.js";
import type { Permission } from "../ports/forge.js";

export const COMMAND_REFUSED_KIND = "command-refused";
export const REVIEW_REFUSED_KIND = "review-refused";

const WHO =
  "only people with write access to this repository (or listed in `approvers` in `.github/cfa.yml`)";

export function commandRefusalComment(input: {
  job: number;
  comment: number;
  login: string;
  permission: Permission;
  /** The command's name, or null for a line that only looked like one. */
  command: string | null;
}): string {
  const what = input.command === null ? "commands" : `\`/${input.command}\``;
  return withHiddenBlock(
    `${ownMention(input.login)}: ${WHO} can use ${what} on a cfa job; you have ${input.permission}. Nothing was changed.`,
    { v: 1, job: input.job, kind: COMMAND_REFUSED_KIND, comment: input.comment },
  );
}

export function reviewRefusalComment(input: {
  job: number;
  review: number;
  login: string;
  permission: Permission;
}): string {
  return withHiddenBlock(
    `${ownMention(input.login)}: your review did not count: ${WHO} can answer a cfa gate or ask for changes to a cfa job's work; you have ${input.permission}. Nothing was changed.`,
    { v: 1, job: input.job, kind: REVIEW_REFUSED_KIND, review: input.review },
  );
}

export function isSameCommandRefusal(comment: number) {
  return (block: HiddenBlock): boolean =>
    block.kind === COMMAND_REFUSED_KIND && block.comment === comment;
}

export function isSameReviewRefusal(review: number) {
  return (block: HiddenBlock): boolean =>
    block.kind === REVIEW_REFUSED_KIND && block.review === review;
}

/** The comment and review ids a block says the app refused, from any comments. */
export function refusedByBlocks(
  blocks: readonly (HiddenBlock | null)[],
  job: number,
): { comments: Set<number>; reviews: Set<number> } {
  const comments = new Set<number>();
  const reviews = new Set<number>();
  for (const block of blocks) {
    if (block === null || block.job !== job) continue;
    if (block.kind === COMMAND_REFUSED_KIND && typeof block.comment === "number") {
      comments.add(block.comment);
    }
    if (block.kind === REVIEW_REFUSED_KIND && typeof block.review === "number") {
      reviews.add(block.review);
    }
  }
  return { comments, reviews };
}
