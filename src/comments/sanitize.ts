// Untrusted text (issue bodies, comments, reviews, agent output) reaches agents as data:
// what a person reading it on GitHub would not see is stripped, so nobody can smuggle
// instructions past the human reviewer (cf. claude-code-action's
// src/github/utils/sanitizer.ts). What GitHub does not render, by construct:
// - HTML comments, processing instructions `<?…?>`, CDATA sections and `<!DOCTYPE …>`
//   declarations (GFM spec §4.6 HTML blocks and §6.10 raw HTML,
//   https://github.github.com/gfm/#html-blocks; GitHub's sanitizer drops all four, as the
//   fixtures captured from github.com in rehypejs/rehype-github
//   packages/sanitize-schema/test/fixtures/{comments,instruction,cdata,directive} show);
// - `<script>`/`<style>` elements with their content (GitHub's HTML sanitization,
//   https://github.com/github/markup#github-markup step 3, removes them);
// - link reference definitions, e.g. the `[//]: # (hidden)` "comment" idiom (GFM spec §4.7,
//   https://github.github.com/gfm/#link-reference-definitions: a definition is not part of
//   the rendered output);
// - link titles and image alt text (tooltips, shown only on hover or when an image fails),
//   and the attributes that carry the same (alt, title, aria-*, data-*, placeholder);
// - invisible characters: zero-width and bidi controls, word joiners, the BOM, Unicode tag
//   characters, control characters, also when written as HTML character references.
// Every pattern here runs on hostile text of up to 65,536 characters, so each is linear:
// the comment-like constructs in JavaScript's engine (a lazy scan that consumes to its
// terminator or the end, once), everything with an unbounded span in RE2's (re2js 2.10.0:
// a backtracking `[^"]*"` retried at every unclosed quote would be quadratic).

import { RE2JS } from "re2js";

/** Comment-like constructs GitHub does not render; each runs to its end or the text's. */
const HIDDEN_BLOCKS: readonly RegExp[] = [
  // `<!-->` and `<!--->` are complete (empty) comments (GFM spec §6.10).
  /<!--(?:-?>|[\s\S]*?(?:-->|$))/g,
  /<\?[\s\S]*?(?:\?>|$)/g,
  /<!\[CDATA\[[\s\S]*?(?:\]\]>|$)/g,
];

type Rewrite = readonly [pattern: RE2JS, replacement: string];

/** The rest of what GitHub drops whole: declarations, script and style elements. */
const HIDDEN_SPANS: readonly Rewrite[] = [
  [RE2JS.compile(String.raw`<![A-Z]+\s[^>]*>`), ""],
  [
    RE2JS.compile(String.raw`<script\b[^>]*>(?s:.*?)(?:</script\s*>|$)`, RE2JS.CASE_INSENSITIVE),
    "",
  ],
  [RE2JS.compile(String.raw`<style\b[^>]*>(?s:.*?)(?:</style\s*>|$)`, RE2JS.CASE_INSENSITIVE), ""],
];

/** What GitHub shows only on hover, or never: link titles, alt text, hidden attributes. */
const TOOLTIPS: readonly Rewrite[] = [
  // `[text](url "title")`, `'title'` or `(title)`: the title goes.
  [
    RE2JS.compile(
      String.raw`(\]\((?:<[^>\n]*>|[^\s()]*))[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))[ \t]*\)`,
    ),
    "$1)",
  ],
  // `![alt](src)`, `![alt][ref]`: the alt text goes.
  [RE2JS.compile(String.raw`!\[[^\]\n]*\]([(\[])`), "![]$1"],
  [
    RE2JS.compile(
      String.raw`\s(?:alt|title|aria-[\w-]+|placeholder|data-[\w-]+)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+)`,
      RE2JS.CASE_INSENSITIVE,
    ),
    "",
  ],
];

// Zero-width, bidi controls, word joiners, invisible operators, BOM, and Unicode tag
// characters (U+E0000–U+E007F, the "ASCII smuggling" block).
const INVISIBLE =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const NUMERIC_REFERENCE = /&#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}));/g;
// Named references whose character is invisible (HTML's named character references).
const INVISIBLE_NAMED =
  /&(?:shy|ZeroWidthSpace|NegativeVeryThinSpace|NegativeThinSpace|NegativeMediumSpace|NegativeThickSpace|zwj|zwnj|lrm|rlm|NoBreak|InvisibleTimes|it|InvisibleComma|ic|ApplyFunction|af);/g;

/**
 * Only the constructs GitHub does not render (comments, link definitions, …), leaving every
 * character of what it does render in place: what a command is parsed from.
 */
export function stripHiddenBlocks(text: string): string {
  let out = text.replace(/\r\n?/g, "\n");
  for (const pattern of HIDDEN_BLOCKS) out = out.replace(pattern, "");
  out = rewrite(out, HIDDEN_SPANS);
  return stripLinkDefinitions(out);
}

/** Everything GitHub does not show a reader, removed. */
export function stripHiddenMarkup(text: string): string {
  return rewrite(stripHiddenBlocks(text), TOOLTIPS)
    .replace(INVISIBLE_NAMED, "")
    .replace(NUMERIC_REFERENCE, decodeReference)
    .replace(INVISIBLE, "")
    .replace(CONTROL, "")
    .normalize("NFC");
}

function rewrite(text: string, rewrites: readonly Rewrite[]): string {
  let out = text;
  for (const [pattern, replacement] of rewrites) out = pattern.matcher(out).replaceAll(replacement);
  return out;
}

/** A numeric character reference as its character; an invalid one as nothing. */
function decodeReference(_match: string, hex: string | undefined, decimal: string | undefined) {
  const code = hex === undefined ? Number(decimal) : parseInt(hex, 16);
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return valid ? String.fromCodePoint(code) : "";
}

/**
 * Drops every line that is a link reference definition (GFM spec §4.7): up to three spaces,
 * `[label]:`, a destination on the same or the next line, and an optional title on the same
 * or the next line. Fenced code is not spared: hiding a visible line from an agent is the
 * safe way to be wrong.
 */
function stripLinkDefinitions(text: string): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const span = definitionSpan(lines, i);
    if (span === 0) kept.push(lines[i] as string);
    else i += span - 1;
  }
  return kept.join("\n");
}

const LABEL = /^ {0,3}\[((?:[^\\\]]|\\.){1,999})\]:/;
const DESTINATION = /^[ \t]*(?:<[^<>\n]*>|[^\s<][^\s]*)/;
const TITLE = /^[ \t]*(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))[ \t]*$/;

/** How many lines the definition starting at `lines[i]` spans; 0 when it is not one. */
function definitionSpan(lines: readonly string[], i: number): number {
  const first = lines[i] as string;
  const label = LABEL.exec(first);
  if (label === null || (label[1] as string).trim() === "") return 0;
  let rest = first.slice(label[0].length);
  let used = 1;
  if (rest.trim() === "") {
    // The destination may start on the next line.
    const next = lines[i + 1];
    if (next === undefined || next.trim() === "") return 0;
    rest = next;
    used = 2;
  }
  const destination = DESTINATION.exec(rest);
  if (destination === null) return 0;
  const after = rest.slice(destination[0].length);
  if (after.trim() === "") {
    // A title may follow on the next line; without one the definition ends here.
    const next = lines[i + used];
    return next !== undefined && TITLE.test(next) ? used + 1 : used;
  }
  return TITLE.test(after) ? used : 0;
}

const MAX_DATA_CHARS = 60_000;

/**
 * Wraps untrusted text as a data block for a prompt. The closing tag cannot be forged from
 * inside: any occurrence of the wrapper's tag name in the text is defanged.
 */
export function asData(source: string, text: string): string {
  let clean = stripHiddenMarkup(text).replace(/<(\/?)untrusted-data/gi, "<$1untrusted_data");
  if (clean.length > MAX_DATA_CHARS) {
    clean = `${clean.slice(0, MAX_DATA_CHARS)}\n[… truncated ${clean.length - MAX_DATA_CHARS} characters]`;
  }
  const safeSource = source.replace(/[^\w ./:@#-]/g, "");
  return `<untrusted-data source="${safeSource}">\n${clean}\n</untrusted-data>`;
}
