// The bot's own deliberate mentions and closing keywords: a gate asks its
// reviewers by name, a question pings the person asked, a refusal answers the one refused,
// and the job's pull request says `Closes #<job>`. Everything else that reaches a posted
// text — agents' words, people's words, file names — is neutralised at the Forge boundary
// (./outbound-text.ts). A template marks what it means to keep; nothing else can.
//
// Why the mark cannot be forged: it is an HMAC-SHA256 of the marked text (the `@login`, or
// `Closes #N`) under a key of 256 random bits made when this module loads, which never
// leaves this file. An agent or a person can write anything, `\u2063cfa:…\u2063` included,
// but not a MAC they have never seen for a key they cannot read. Marks live only in memory,
// between a template and the Forge: the outbox that persists comments before they are posted
// (state.json, which agents can read) stores them unmarked, with the marked spans' offsets
// in a field of its own (`unmark`), and marks them afresh when it posts (`remark`) — so a
// MAC is never written where an agent could copy it, and a comment posted by the next
// process (after a crash) keeps its deliberate mentions. A mark that was cut (a trimmed
// comment) or altered no longer verifies, and what follows it is neutralised like the rest.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const KEY = randomBytes(32);
/** U+2063 INVISIBLE SEPARATOR: never posted (every one is removed at the boundary). */
export const MARK_EDGE = "\u2063";
const MAC_LENGTH = 22;
/** The most characters a mark adds before its target (edges, `cfa:`, MAC, `:`, 3 digits). */
export const MARK_MAX_LENGTH = 2 + 4 + MAC_LENGTH + 1 + 3;

/** A GitHub login (or app login with `[bot]`), optionally `/team`. */
const LOGIN =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?(?:\/[A-Za-z0-9][A-Za-z0-9_-]{0,99})?$/;

/** A mark: its MAC, then how many characters after it it covers. */
const MARKED = /\u2063cfa:([A-Za-z0-9_-]{22}):([0-9]{1,3})\u2063/gu;
/** Whatever is left of a mark that did not verify, or was cut: removed. */
const REMNANT = /\u2063(?:cfa:[A-Za-z0-9_-]{0,22}(?::[0-9]{0,3})?\u2063?)?/gu;

function mac(target: string): string {
  return createHmac("sha256", KEY).update(target).digest("base64url").slice(0, MAC_LENGTH);
}

function mark(target: string): string {
  return `${MARK_EDGE}cfa:${mac(target)}:${target.length}${MARK_EDGE}${target}`;
}

/** `@login`, marked as the bot's own mention: it notifies. Logins come from GitHub or config. */
export function ownMention(login: string): string {
  if (!LOGIN.test(login)) return `@${login}`; // not a login: neutralised like any other text
  return mark(`@${login}`);
}

/** `Closes #N`, marked as the bot's own: the job's pull request closes the job's issue. */
export function ownClosing(issue: number, keyword: "Closes" | "Fixes" | "Resolves" = "Closes") {
  return mark(`${keyword} #${issue}`);
}

/** A span of an unmarked text that a verified mark covered, and what it covered. */
export interface OwnSpan {
  at: number;
  target: string;
}

function verifies(given: string, target: string): boolean {
  const expected = Buffer.from(mac(target));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * `text` without any mark, and where the verified ones were: the spans a template marked.
 * Marks that do not verify are dropped, and what they preceded stays ordinary text.
 */
export function unmark(text: string): { text: string; own: OwnSpan[] } {
  if (!text.includes(MARK_EDGE)) return { text, own: [] };
  const own: OwnSpan[] = [];
  let out = "";
  let last = 0;
  for (const match of text.matchAll(MARKED)) {
    const at = match.index;
    if (at < last) continue; // inside the target of the mark before
    out += text.slice(last, at).replace(REMNANT, "");
    const end = at + match[0].length;
    const target = text.slice(end, end + Number(match[2]));
    if (!target.includes(MARK_EDGE) && verifies(match[1] as string, target)) {
      own.push({ at: out.length, target });
      out += target;
      last = end + target.length;
    } else {
      last = end;
    }
  }
  out += text.slice(last).replace(REMNANT, "");
  return { text: out, own };
}

/** Marks `text` again where `own` says (spans whose text no longer matches are skipped). */
export function remark(text: string, own: readonly OwnSpan[] | undefined): string {
  if (own === undefined || own.length === 0) return text;
  let out = "";
  let last = 0;
  for (const span of [...own].sort((a, b) => a.at - b.at)) {
    if (span.at < last || text.slice(span.at, span.at + span.target.length) !== span.target) {
      continue;
    }
    out += text.slice(last, span.at) + mark(span.target);
    last = span.at + span.target.length;
  }
  return out + text.slice(last);
}
