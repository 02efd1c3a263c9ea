// What the bot says about follow-ups (docs/protocol.md#jobs-and-states), pure: the one reply
// to a request that cannot start one (the pull request merged or closed, the issue closed,
// the job failed), found again by its hidden block so a later wake never answers it twice.

import { withHiddenBlock, type HiddenBlock } from "./hidden-block.js";
import { ownMention } from "./own-marks.js";

export const FOLLOW_UP_REFUSED_KIND = "follow-up-refused";

/** What the request was: a comment (on the issue or the pull request) or a review. */
export type RequestRef = { comment: number } | { review: number };

export function followUpRefusalComment(input: {
  job: number;
  about: RequestRef;
  login: string;
  reason: string;
}): string {
  return withHiddenBlock(`${ownMention(input.login)}: ${input.reason}`, {
    v: 1,
    job: input.job,
    kind: FOLLOW_UP_REFUSED_KIND,
    ...input.about,
  });
}

export function isSameFollowUpRefusal(about: RequestRef) {
  return (block: HiddenBlock): boolean =>
    block.kind === FOLLOW_UP_REFUSED_KIND &&
    ("comment" in about ? block.comment === about.comment : block.review === about.review);
}

/** Why no follow-up can start for job `job` now, in the words the person reads; null: it can. */
export function followUpBlocked(input: {
  job: number;
  label: string;
  state: string;
  issue: { state: "open" | "closed"; labels: readonly string[] };
  pull: { number: number; state: "open" | "closed"; merged: boolean } | null;
}): string | null {
  const { job, pull } = input;
  if (input.state === "FAILURE") {
    return `job #${job} ended in FAILURE, so it takes no follow-up (a follow-up takes up work that was done or withdrawn). Open a new issue for what you want; its job starts from the default branch.`;
  }
  if (pull?.merged === true) {
    return `job #${job}'s pull request #${pull.number} is merged, so it takes no follow-up. Open a new issue for what you want: its job starts from the default branch, which holds this work.`;
  }
  if (pull !== null && pull.state === "closed") {
    return `job #${job}'s pull request #${pull.number} is closed. Reopen it, then ask again: a follow-up works on an open pull request.`;
  }
  if (input.issue.state === "closed") {
    return `issue #${job} is closed. Reopen it, then ask again: a follow-up of a closed issue would be withdrawn at once.`;
  }
  if (!input.issue.labels.includes(input.label)) {
    return `issue #${job} no longer carries the \`${input.label}\` label. Add it back, then ask again.`;
  }
  return null;
}
