// Publishing to the forge: the outbox of record comments (each posted at most once, found
// again by its seq) and the status comment (edited in place).

import type { Comment, Forge } from "../../ports/forge.js";
import { readHiddenBlock } from "../../comments/hidden-block.js";
import { COMMENT_LIMIT, cutToFit, fitComment } from "../../comments/comment-text.js";
import { applyChange, type JobRecords, type Reporter } from "./session.js";
import { MARK_MAX_LENGTH, remark, unmark, type OwnSpan } from "../../comments/own-marks.js";
import { redact } from "../../secrets/index.js";

export interface BotComments {
  bySeq: Map<number, Comment>;
  status: Comment | null;
}

/** The bot's own structured comments on the issue, by seq; only the bot's login is trusted. */
export function botComments(forge: Forge, comments: Comment[], job: number): BotComments {
  const bySeq = new Map<number, Comment>();
  let status: Comment | null = null;
  for (const comment of comments) {
    if (comment.author.login !== forge.botLogin) continue;
    const block = readHiddenBlock(comment.body);
    if (!block || block.job !== job) continue;
    if (block.kind === "status") status ??= comment;
    else if (block.seq !== undefined) bySeq.set(block.seq, comment);
  }
  return { bySeq, status };
}

/**
 * Allocates the next seq and queues a record comment; persisted before it is posted. The
 * stored body is redacted (state.json is committed) and holds no mark: the template's own
 * mentions are kept as offsets and marked again when posted (own-marks.ts).
 * It is stored as it will be posted, cut to GitHub's limit (comments kept whole until they
 * were posted once grew state.json to 10.4 MB) — after redaction, so no half of a
 * secret is kept, and after unmarking, so a cut can never split a mark; room is left for
 * the marks `remark` puts back.
 */
export function queueComment(s: JobRecords, kind: string, render: (seq: number) => string): void {
  applyChange(s, {
    type: "comment-queued",
    kind,
    render: (seq) => {
      const { text, own } = unmark(redact(render(seq), "a comment"));
      return fitUnmarked(text, own, s.paths.dir);
    },
  });
}

/** An unmarked body cut to fit a comment once its `own` marks are back; spans cut off go. */
export function fitUnmarked(
  text: string,
  own: readonly OwnSpan[],
  fullTextAt?: string,
): { body: string; own: OwnSpan[] } {
  const cut = cutToFit(text, COMMENT_LIMIT - own.length * MARK_MAX_LENGTH, fullTextAt);
  const kept = own.flatMap((span) => {
    if (span.at + span.target.length <= cut.head) return [span];
    if (span.at >= cut.tailFrom) return [{ ...span, at: span.at - cut.tailFrom + cut.tailTo }];
    return [];
  });
  return { body: cut.text, own: kept };
}

/** Posts the outbox: each comment at most once (one of the bot's with its seq counts). */
export async function postOutbox(s: JobRecords & Reporter): Promise<void> {
  const { forge } = s.deps;
  if (s.engine.outbox.length === 0) return;
  const existing = botComments(forge, await forge.listComments(s.n), s.n);
  for (const item of s.engine.outbox) {
    if (existing.bySeq.has(item.seq)) continue;
    await forge.createComment(s.n, fitComment(remark(item.body, item.own), s.paths.dir));
  }
  applyChange(s, { type: "outbox-posted" });
}

/** Edits the status comment in place, or finds or posts it; returns its id. */
export async function upsertStatus(
  forge: Forge,
  issue: number,
  statusComment: number | null,
  body: string,
): Promise<number> {
  const fitted = fitComment(body);
  if (statusComment !== null) {
    try {
      await forge.updateComment(statusComment, fitted);
      return statusComment;
    } catch {
      // The comment was deleted by someone: find or post a new one below.
    }
  }
  const found = botComments(forge, await forge.listComments(issue), issue).status;
  if (found) {
    await forge.updateComment(found.id, fitted);
    return found.id;
  }
  const created = await forge.createComment(issue, fitted);
  return created.id;
}
