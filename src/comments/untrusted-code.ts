// Text agents or their commands control (a command line, a host a command asked for, the
// last lines of a failing setup) shown in a comment or a check run as code: redacted first,
// control characters gone, and fenced with more backticks than the text holds, so it can
// neither end its span or block early nor become a mention, a link, a table row or markup.

import { redact } from "../secrets/index.js";

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029]/gu;

function longestRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/gu) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** One line as an inline code span, at most `max` characters; `|` escaped for table cells. */
export function codeSpan(text: string, max = 120, where = "a comment"): string {
  let flat = redact(text, where).replace(CONTROL, "").replace(/\s+/gu, " ").trim();
  if (flat.length > max) flat = `${flat.slice(0, max - 1)}…`;
  if (flat === "") flat = "(none)";
  const fence = "`".repeat(longestRun(flat) + 1);
  // GFM: a span whose text starts or ends with a backtick needs a space inside the fence.
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  // In a GFM table a `|` splits the cell even inside a code span unless escaped.
  return `${fence}${pad}${flat.replace(/\|/gu, "\\|")}${pad}${fence}`;
}

/** Lines as a fenced code block, at most `max` characters. */
export function codeBlock(text: string, max = 2000, where = "a comment"): string {
  let body = redact(text, where).replace(/\r\n?/gu, "\n").replace(CONTROL, "");
  if (body.length > max) body = `…${body.slice(-(max - 1))}`;
  const fence = "`".repeat(Math.max(3, longestRun(body) + 1));
  return `${fence}text\n${body}\n${fence}`;
}
