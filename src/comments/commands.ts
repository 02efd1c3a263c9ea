// Commands people write in issue comments. The grammar, so only a line meant as a command acts:
// - only the first visible line can carry one, so quoting a bot comment (`> /withdraw …`)
//   or mentioning a command in prose does nothing; what GitHub does not render (an HTML
//   comment, a link reference definition, ./sanitize.ts) is not a line a person sees;
// - the line starts with the command: at most three spaces before it (more, or a tab, is an
//   indented code block: GFM spec §4.4), and nothing else: a line starting with a
//   no-break space, an ideographic space, a BOM or any other character is prose, and a
//   fenced code block's opening line is not a command either;
// - the verb is case-insensitive (`/WITHDRAW`) and ends at a space, a tab or the line's end
//   (`/withdraw-please` is not a command);
// - what follows is the argument, hidden markup removed; `/intervene` and `/answer` without
//   text are refused with a one-line reply, never delivered empty.

import { ESCALATION_ID } from "./escalation-id.js";
import { stripHiddenBlocks, stripHiddenMarkup } from "./sanitize.js";

export { ESCALATION_ID };

export const COMMAND_VERBS = [
  "withdraw",
  "intervene",
  "answer",
  "retry",
  "pause",
  "resume",
  "cfa",
] as const;
export type CommandVerb = (typeof COMMAND_VERBS)[number];

export type Command =
  | { kind: "withdraw"; reason: string }
  | { kind: "intervene"; text: string }
  | { kind: "answer"; id: string | null; text: string }
  /** Try a failed workspace setup again (after the config is fixed). */
  | { kind: "retry" }
  /** Stop at the next model-call boundary and run nothing until `/resume`. */
  | { kind: "pause"; reason: string }
  /** Release a pause; what people said meanwhile takes effect now. */
  | { kind: "resume" }
  /**
   * A request for more work on the job's pull request (docs/protocol.md#jobs-and-states):
   * after the job ended, it starts a follow-up; while one runs, it reaches its lead as an
   * intervention. Read on the job's issue and on its pull request.
   */
  | { kind: "cfa"; text: string };

export type CommandParse =
  | { ok: true; command: Command }
  /** A command line whose text is wrong: the reply to give, and the verb it named. */
  | { ok: false; error: string; verb: CommandVerb }
  /** Not a command at all: ordinary conversation, ignored by the bot. */
  | null;

const COMMAND_LINE = /^ {0,3}\/(withdraw|intervene|answer|retry|pause|resume|cfa)(?=[ \t]|$)(.*)$/i;
/** A blank line in CommonMark's sense: spaces and tabs only (GFM spec §2.1). */
const BLANK = /^[ \t]*$/;

export function parseCommand(body: string): CommandParse {
  const lines = stripHiddenBlocks(body).split("\n");
  const first = lines.findIndex((line) => !BLANK.test(line));
  if (first < 0) return null;
  const match = COMMAND_LINE.exec(lines[first] as string);
  if (!match) return null;
  const verb = (match[1] as string).toLowerCase() as CommandVerb;
  const rest = stripHiddenMarkup([match[2] ?? "", ...lines.slice(first + 1)].join("\n")).trim();
  switch (verb) {
    case "withdraw":
      return { ok: true, command: { kind: "withdraw", reason: rest || "withdrawn by request" } };
    case "intervene":
      if (!rest) {
        return {
          ok: false,
          verb,
          error:
            "`/intervene` needs the text to deliver to the lead, e.g. `/intervene keep the old output`",
        };
      }
      return { ok: true, command: { kind: "intervene", text: rest } };
    case "answer":
      return parseAnswer(rest);
    case "retry":
      // Whatever follows is the person's note to themselves: the command takes no argument.
      return { ok: true, command: { kind: "retry" } };
    case "pause":
      return { ok: true, command: { kind: "pause", reason: rest || "paused by request" } };
    case "resume":
      // Whatever follows is the person's own note: a resume carries nothing to deliver.
      return { ok: true, command: { kind: "resume" } };
    case "cfa":
      if (!rest) {
        return {
          ok: false,
          verb,
          error: "`/cfa` needs the change you want after it, e.g. `/cfa also accept an empty list`",
        };
      }
      return { ok: true, command: { kind: "cfa", text: rest } };
    default: {
      const unreachable: never = verb;
      return unreachable;
    }
  }
}

function parseAnswer(rest: string): CommandParse {
  const [head = "", ...tail] = rest.split(/\s+/);
  if (ESCALATION_ID.test(head)) {
    const text = rest.slice(head.length).trim();
    if (tail.length === 0 || !text) {
      return {
        ok: false,
        verb: "answer",
        error: `\`/answer ${head}\` needs your answer after the question's id, e.g. \`/answer ${head} yes, go ahead\``,
      };
    }
    return { ok: true, command: { kind: "answer", id: head.toLowerCase(), text } };
  }
  if (!rest) {
    return {
      ok: false,
      verb: "answer",
      error: "`/answer` needs the answer text, e.g. `/answer q1 yes`",
    };
  }
  return { ok: true, command: { kind: "answer", id: null, text: rest } };
}
