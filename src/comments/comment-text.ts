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
  // Redacted before it is cut (issue 18 §3): half a secret is still a leak.
  const body = redact(whole, "a comment");
  const blockAt = body.lastIndexOf("\n\n<!-- cfa ");
  const tail = blockAt >= 0 ? body.slice(blockAt) : "";
  const head = blockAt >= 0 ? body.slice(0, blockAt) : body;
  const note = `\n\n_… trimmed ${head.length - (COMMENT_LIMIT - 400)} characters${
    fullTextAt ? `; the full text is in ${fullTextAt}` : ""
  }._`;
  return head.slice(0, COMMENT_LIMIT - 400) + note + tail;
}

export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}
