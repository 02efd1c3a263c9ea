// Every create on GitHub is idempotent (a re-run after a crash never posts twice): before a
// structured comment is posted, the issue is searched for one of the bot's own comments
// whose hidden block already says the same. Only the bot's own logins count:
// anyone can write a hidden block, and another app's or a person's copy of one would
// otherwise suppress the failure and config-error comments. The app (as itself) and the
// worker (as github-actions[bot] or as the app) may post under different logins, so the
// caller names every login that is the bot's.

import { readHiddenBlock, type HiddenBlock } from "../comments/hidden-block.js";
import type { CueEffects } from "./cue-effects.js";

export async function postOnce(
  github: Pick<CueEffects, "listComments" | "createComment">,
  issue: number,
  body: string,
  same: (block: HiddenBlock) => boolean,
  /** The logins the bot posts as; GitHub logins compare case-insensitively. */
  ownLogins: readonly string[],
  /** The job the block names, when the comment goes elsewhere (the job's pull request). */
  job = issue,
): Promise<boolean> {
  const own = new Set(ownLogins.map((login) => login.toLowerCase()));
  const existing = await github.listComments(issue);
  const posted = existing.some((comment) => {
    if (comment.author.type !== "Bot" || !own.has(comment.author.login.toLowerCase())) {
      return false;
    }
    const block = readHiddenBlock(comment.body);
    return block !== null && block.job === job && same(block);
  });
  if (posted) return false;
  await github.createComment(issue, body);
  return true;
}
