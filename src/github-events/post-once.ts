// Every create on GitHub is idempotent (DESIGN.md "Rules that hold everywhere"): before a
// structured comment is posted, the issue is searched for a bot's comment whose hidden block
// already says the same. Any bot's, because the app (as itself) and the worker (as
// github-actions[bot] or the app) post under different logins.

import { readHiddenBlock, type HiddenBlock } from "../engine/render/hidden-block.js";
import type { CueEffects } from "./cue-effects.js";

export async function postOnce(
  github: Pick<CueEffects, "listComments" | "createComment">,
  issue: number,
  body: string,
  same: (block: HiddenBlock) => boolean,
): Promise<boolean> {
  const existing = await github.listComments(issue);
  const posted = existing.some((comment) => {
    if (comment.author.type !== "Bot") return false;
    const block = readHiddenBlock(comment.body);
    return block !== null && block.job === issue && same(block);
  });
  if (posted) return false;
  await github.createComment(issue, body);
  return true;
}
