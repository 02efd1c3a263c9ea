// The one outbound filter: every text the bot posts — comments, pull request
// titles and bodies, check runs, replies — passes here at the Forge boundary
// (./outbound-forge.ts), after the redactor. Nothing in it pings a person or a team, and
// nothing closes an issue, unless a template marked it as the bot's own (./own-marks.ts).
//
// What GitHub acts on, and so what is neutralised:
// - A mention is `@` then a login (or `@org/team`), at the start of a text node or after a
//   character that is not a word character, in any text node outside `pre`, `code`, `a`,
//   `style` and `script` (html-pipeline's MentionFilter and TeamMentionFilter, the open
//   source of GitHub's: `(?:^|\W)@((?>[a-z0-9][a-z0-9-]*))`, IGNORE_PARENTS; docs "Basic
//   writing and formatting syntax", "Mentioning people and teams": typing @ and a username
//   notifies them). Whether a character ends up inside a code span depends on a Markdown
//   parse that an inline ``` ``` ```, an escaped backtick, a backtick right before `@`, raw
//   HTML or a link can each tip one way or the other, so this filter does not parse: it
//   breaks every `@` that a letter could follow unless an ASCII letter or digit stands right
//   before it (then no Markdown construct can sit between them, and GitHub sees a word
//   character: not a mention). An invisible U+2060 WORD JOINER after the `@` leaves the text
//   as it reads and makes `@` followed by a non-name character: no mention, inside code or
//   out. Inside a URL (`https://medium.com/@erin`) a joiner would break the link, so the `@`
//   there becomes `%40` instead, which a link resolves the same.
// - A closing keyword (close, closes, closed, fix, fixes, fixed, resolve, resolves,
//   resolved; any case; docs "Linking a pull request to an issue": "KEYWORD #ISSUE-NUMBER",
//   "KEYWORD OWNER/REPOSITORY#ISSUE-NUMBER", in a pull request's description or a commit
//   message) followed, within the next line or so, by an issue reference (`#N`,
//   `owner/repo#N`, `GH-N`, an issues or pull URL) gets a WORD JOINER after its first
//   letter: it reads the same and is no longer the keyword. The reference stays a link.
// - Character references that spell `@`, `#` or a letter (`&#64;erin`, `F&#105;xes`) are
//   decoded first: GitHub decodes them before it looks.
// Every pattern is linear: this runs on hostile text of up to 65,536 characters.

import { unmark, type OwnSpan } from "./own-marks.js";

export const WORD_JOINER = "\u2060";

/** Numeric and a few named references that decode to what a mention or keyword is made of. */
const REFERENCE = /&(?:#(?:[xX]0*([0-9a-fA-F]{1,6})|0*([0-9]{1,7}))|(commat|num|sol|colon));/g;
const NAMED: Readonly<Record<string, string>> = { commat: "@", num: "#", sol: "/", colon: ":" };
const SPELLS = /^[A-Za-z0-9@#/:]$/;

function decodeReferences(text: string): string {
  return text.replace(
    REFERENCE,
    (match, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
      const value =
        named !== undefined
          ? (NAMED[named] as string)
          : String.fromCharCode(hex !== undefined ? parseInt(hex, 16) : Number(dec));
      return SPELLS.test(value) ? value : match;
    },
  );
}

const ALNUM = /[A-Za-z0-9]/;

/** Whether the `@` at `at` sits inside a URL: a run without spaces from `scheme://` to it. */
function inUrl(text: string, at: number): boolean {
  for (let k = at - 1; k >= 0 && at - k < 2048; k -= 1) {
    const ch = text[k] as string;
    if (/[\s<>"'`()[\]]/.test(ch)) return false;
    if (ch === "/" && text[k - 1] === "/" && text[k - 2] === ":") return true;
  }
  return false;
}

/** `@` that GitHub could read as a mention, broken; `before` is the character before `text`. */
function neutralizeMentions(text: string, before: string): string {
  let out = "";
  let last = 0;
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    const prev = at === 0 ? before : (text[at - 1] as string);
    const next = text[at + 1] ?? "";
    if (!ALNUM.test(next) || ALNUM.test(prev)) continue;
    out += text.slice(last, at) + (inUrl(text, at) ? "%40" : `@${WORD_JOINER}`);
    last = at + 1;
  }
  return out + text.slice(last);
}

const KEYWORD = /(?<![A-Za-z0-9_])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?![A-Za-z0-9_])/gi;
/**
 * An issue reference as GitHub accepts one after a keyword (`#N`, `owner/repo#N` — both
 * hold `#` and a digit), `GH-N`, or a URL. Deliberately loose, and linear.
 */
const ISSUE_REFERENCE = /#[0-9]|gh-[0-9]|:\/\/|www\.|\/(?:issues|pull)\/[0-9]/i;
/** How far after a keyword a reference is looked for: a line, whatever markup is between. */
const KEYWORD_REACH = 160;

function neutralizeKeywords(text: string): string {
  return text.replace(KEYWORD, (word: string, at: number) => {
    const after = text.slice(at + word.length, at + word.length + KEYWORD_REACH);
    if (!ISSUE_REFERENCE.test(after)) return word;
    return `${word[0] as string}${WORD_JOINER}${word.slice(1)}`;
  });
}

function neutralize(text: string, before: string): string {
  return neutralizeKeywords(neutralizeMentions(decodeReferences(text), before));
}

/**
 * `text` as it may be posted: every mention and closing keyword neutralised, except what a
 * template marked as the bot's own; the marks themselves removed.
 */
export function outboundText(text: string): string {
  const { text: plain, own } = unmark(text);
  return neutralizeAround(plain, own);
}

function neutralizeAround(plain: string, own: readonly OwnSpan[]): string {
  let out = "";
  let last = 0;
  for (const span of own) {
    out += neutralize(plain.slice(last, span.at), out.at(-1) ?? "");
    out += span.target;
    last = span.at + span.target.length;
  }
  return out + neutralize(plain.slice(last), out.at(-1) ?? "");
}
