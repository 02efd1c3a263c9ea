// Agent output shown on GitHub is Markdown to read, but it must not ping people or close
// issues on the agents' behalf.

import { redact } from "../secrets/index.js";

/** `@name` → `@\u200bname` (a zero-width space after the @), so agent text never notifies anyone. */
export function neutralizeMentions(text: string): string {
  // Code spans and fences are left as written: GitHub does not notify from them, and a
  // package name like `@scope/pkg` must stay copyable.
  return text
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/(^|[^\w`])@([A-Za-z0-9-]+)/g, "$1@\u200b$2"),
    )
    .join("");
}

/** GitHub rejects comment bodies over 65,536 characters; leave room for the hidden block. */
export const COMMENT_LIMIT = 65_000;

/** Trims `body` to fit a comment, saying where the full text is; the tail (block) is kept. */
export function fitComment(whole: string, fullTextAt?: string): string {
  if (whole.length <= COMMENT_LIMIT) return whole;
  // Redacted before it is cut: half a secret is still a leak.
  return cutToFit(redact(whole, "a comment"), COMMENT_LIMIT, fullTextAt).text;
}

/** What `cutToFit` kept: the head's first `head` characters, then the tail moved to `tailTo`. */
export interface CommentCut {
  text: string;
  /** Characters of the original kept at the start. */
  head: number;
  /** Where the kept tail (the hidden block) started in the original, and starts now. */
  tailFrom: number;
  tailTo: number;
}

/**
 * Cuts an already redacted `body` to `limit` characters: its head shortened with a note
 * saying how much and where the full text is, its tail (the hidden block) kept whole.
 */
export function cutToFit(body: string, limit: number, fullTextAt?: string): CommentCut {
  if (body.length <= limit) {
    return { text: body, head: body.length, tailFrom: body.length, tailTo: body.length };
  }
  const blockAt = body.lastIndexOf("\n\n<!-- cfa ");
  const tailFrom = blockAt >= 0 ? blockAt : body.length;
  const tail = body.slice(tailFrom);
  const keep = Math.max(0, limit - 400 - Math.max(0, tail.length - 400));
  const note = `\n\n_… trimmed ${tailFrom - keep} characters${
    fullTextAt ? `; the full text is in ${fullTextAt}` : ""
  }._`;
  const text = body.slice(0, keep) + note + tail;
  return { text, head: keep, tailFrom, tailTo: keep + note.length };
}

export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}
