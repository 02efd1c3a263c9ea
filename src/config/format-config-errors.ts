// Renders configuration errors as a short Markdown list for an issue comment. Messages
// quote the repository's own file, so each is shown verbatim in a code span: no Markdown,
// HTML or @mention in it takes effect, and it cannot forge the bot's hidden `<!-- cfa`
// comment block (the hidden `<!-- cfa {…} -->` block every structured comment ends with).

import type { ConfigIssue } from "./config-issue.js";

const MAX_ITEMS = 20;
const MAX_CHARS = 300;

export function formatConfigErrors(errors: readonly ConfigIssue[]): string {
  const shown = errors.slice(0, MAX_ITEMS).map((error) => `- ${codeSpan(error.message)}`);
  if (errors.length > MAX_ITEMS) shown.push(`- … and ${errors.length - MAX_ITEMS} more`);
  return shown.join("\n");
}

function codeSpan(text: string): string {
  let body = text.replace(/\s+/g, " ").trim();
  if (body.length > MAX_CHARS) body = `${body.slice(0, MAX_CHARS)}…`;
  body = body.replaceAll("<!--", "< !--").replaceAll("-->", "-- >");
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = body.startsWith("`") || body.endsWith("`") ? " " : "";
  return `${fence}${pad}${body}${pad}${fence}`;
}
