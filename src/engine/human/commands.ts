// Commands people write in issue comments. Only the first non-empty line can carry one, so
// quoting a bot comment (`> /withdraw …`) or mentioning a command in prose does nothing.

export type Command =
  | { kind: "withdraw"; reason: string }
  | { kind: "intervene"; text: string }
  | { kind: "answer"; id: string | null; text: string };

export type CommandParse =
  | { ok: true; command: Command }
  | { ok: false; error: string }
  /** Not a command at all: ordinary conversation, ignored by the bot. */
  | null;

const COMMAND_LINE = /^\/(withdraw|intervene|answer)\b(.*)$/;
/** Escalation ids are `q` and a number (q1, q2…), easy to type in a reply. */
export const ESCALATION_ID = /^q\d{1,6}$/;

export function parseCommand(body: string): CommandParse {
  const lines = body.replace(/\r\n/g, "\n").split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first < 0) return null;
  const match = COMMAND_LINE.exec((lines[first] ?? "").trim());
  if (!match) return null;
  const [, verb, restOfLine = ""] = match;
  const rest = [restOfLine.trim(), ...lines.slice(first + 1)].join("\n").trim();
  switch (verb) {
    case "withdraw":
      return { ok: true, command: { kind: "withdraw", reason: rest || "withdrawn by request" } };
    case "intervene":
      if (!rest) return { ok: false, error: "`/intervene` needs the text to deliver to the lead" };
      return { ok: true, command: { kind: "intervene", text: rest } };
    case "answer": {
      const [head = "", ...tail] = rest.split(/\s+/);
      const id = ESCALATION_ID.test(head) && tail.length > 0 ? head : null;
      const text = id ? rest.slice(head.length).trim() : rest;
      if (!text) return { ok: false, error: "`/answer` needs the answer text" };
      return { ok: true, command: { kind: "answer", id, text } };
    }
    default:
      return null;
  }
}
