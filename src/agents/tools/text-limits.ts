// How long the texts an agent hands the protocol's tools may be. A 10 MB
// question was stored three to four times over — the tool call in the transcript, the
// message in the bus, the escalation in state.json, the comment in the outbox — and every
// later wake read it back. Bounded at the tool's input schema, the agent gets a one-line
// error naming the limit and can say it shorter; nothing is stored.
//
// The limits, and why:
// - GitHub refuses a comment, issue or pull-request body over 65,536 characters ("body is too
//   long (maximum is 65536 characters)", the REST API's validation error; see
//   src/app/webhook-server.ts). What reaches a comment must fit one with its template
//   around it: a question or an escalation (the question comment quotes it), a verdict's
//   issues (a dropped task's notice lists them: 20 × 2,000 plus notes of 8,000 stay under
//   50,000), an outcome's or a withdrawal's reason (the transition comment quotes it; the
//   outcome record's own bound).
// - A brief, a message between tasks and a proxy's answer never reach a comment but live in
//   the bus, state.json and two transcripts: 32,000 characters (about 8,000 tokens) carry
//   any instruction; data belongs in files (dispatch copies them, `files`).
// - A program's argument: Linux refuses one over MAX_ARG_STRLEN, 131,072 bytes (execve(2),
//   "E2BIG"), and a command line over ARG_MAX; 4,096 arguments of a model's output is
//   already far past any command a tool call carries.

import * as z from "zod";
import { OUTCOME_REASON_MAX } from "../../protocol/outcome-record.js";

export const TEXT_LIMITS = {
  question: 10_000,
  answer: 10_000,
  brief: 32_000,
  message: 32_000,
  verdictIssue: 2_000,
  verdictIssues: 20,
  verdictNotes: 8_000,
  reason: OUTCOME_REASON_MAX,
  dispatchFiles: 100,
  argument: 131_072,
  arguments: 4_096,
} as const;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * A text of at most `max` characters (trimmed; non-empty unless `allowEmpty`), refused with a
 * line naming the limit.
 */
export function boundedText(max: number, what: string, options: { allowEmpty?: boolean } = {}) {
  return z
    .string()
    .trim()
    .min(options.allowEmpty ? 0 : 1)
    .max(max, {
      error: (issue) =>
        `${what} may be at most ${count(max)} characters; this one has ${count(lengthOf(issue.input))}: say it shorter${max >= TEXT_LIMITS.brief ? " (put long material in a file and name it)" : ""}`,
    });
}

/** At most `max` entries, refused with a line naming the limit. */
export function boundedList<T extends z.ZodType>(item: T, max: number, what: string) {
  return z.array(item).max(max, {
    error: (issue) =>
      `at most ${count(max)} ${what}; this call has ${count(lengthOf(issue.input))}: keep the ${count(max)} that matter`,
  });
}

function lengthOf(input: unknown): number {
  return typeof input === "string" || Array.isArray(input) ? input.length : 0;
}
