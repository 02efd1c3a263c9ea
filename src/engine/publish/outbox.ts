// Publishing to the forge: the outbox of record comments (each posted at most once, found
// again by its seq) and the status comment (edited in place).

import type { Comment, Forge } from "../../ports/forge.js";
import type { EngineState } from "../../records/engine-state.js";
import { readHiddenBlock } from "../../comments/hidden-block.js";
import { fitComment } from "../../comments/comment-text.js";

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

/** Allocates the next seq and queues a record comment; persisted before it is posted. */
export function enqueue(engine: EngineState, kind: string, render: (seq: number) => string) {
  const seq = engine.seq;
  return {
    ...engine,
    seq: seq + 1,
    outbox: [...engine.outbox, { seq, kind, body: render(seq) }],
  };
}

export async function flushOutbox(
  forge: Forge,
  issue: number,
  engine: EngineState,
  fullTextAt?: string,
): Promise<EngineState> {
  if (engine.outbox.length === 0) return engine;
  const existing = botComments(forge, await forge.listComments(issue), issue);
  for (const item of engine.outbox) {
    if (existing.bySeq.has(item.seq)) continue;
    await forge.createComment(issue, fitComment(item.body, fullTextAt));
  }
  return { ...engine, outbox: [] };
}

export async function upsertStatus(
  forge: Forge,
  issue: number,
  engine: EngineState,
  body: string,
): Promise<EngineState> {
  const fitted = fitComment(body);
  if (engine.statusComment !== null) {
    try {
      await forge.updateComment(engine.statusComment, fitted);
      return engine;
    } catch {
      // The comment was deleted by someone: find or post a new one below.
    }
  }
  const found = botComments(forge, await forge.listComments(issue), issue).status;
  if (found) {
    await forge.updateComment(found.id, fitted);
    return { ...engine, statusComment: found.id };
  }
  const created = await forge.createComment(issue, fitted);
  return { ...engine, statusComment: created.id };
}
