// The command grammar as an attacker and a careless typist try it: a command is the first visible
// line, starting with `/verb` (at most three spaces before it), the verb in any case and ending at
// a space, a tab or the line's end; never in code, never behind an invisible or look-alike
// character, never delivered empty. Every input goes through the same parseCommand the app and the
// worker use.

import { describe, expect, it } from "vitest";
import { parseCommand, type Command } from "../../src/comments/commands.js";
import { cases } from "../support/adversarial/count.js";

type Expect = Command | "refused" | "ignored";

const withdraw = (reason = "withdrawn by request"): Command => ({ kind: "withdraw", reason });
const intervene = (text: string): Command => ({ kind: "intervene", text });
const answer = (id: string | null, text: string): Command => ({ kind: "answer", id, text });

const TABLE: readonly [string, string, Expect][] = [
  // Accepted, in every spelling a person may use.
  ["plain", "/withdraw", withdraw()],
  ["upper case", "/WITHDRAW", withdraw()],
  ["mixed case", "/WithDraw", withdraw()],
  ["with a reason", "/withdraw not needed", withdraw("not needed")],
  [
    "reason on following lines",
    "/withdraw\nnot needed\nany more",
    withdraw("not needed\nany more"),
  ],
  ["tab before the reason", "/withdraw\tnot needed", withdraw("not needed")],
  ["CRLF line ends", "/withdraw\r\nnot needed\r\n", withdraw("not needed")],
  ["one leading space", " /withdraw", withdraw()],
  ["three leading spaces", "   /withdraw", withdraw()],
  ["after blank lines", "\n\n  \n/withdraw", withdraw()],
  ["after a hidden comment line", "<!-- note -->\n/withdraw", withdraw()],
  ["after a link definition", "[//]: # (note)\n/withdraw", withdraw()],
  ["intervene", "/intervene keep the old API", intervene("keep the old API")],
  ["INTERVENE", "/INTERVENE keep the old API", intervene("keep the old API")],
  ["intervene on the next line", "/intervene\nkeep the old API", intervene("keep the old API")],
  ["intervene with hidden text around", "/intervene <!-- x -->use\u200b ISO", intervene("use ISO")],
  ["answer with id", "/answer q3 use ISO dates", answer("q3", "use ISO dates")],
  ["answer with upper-case id", "/ANSWER Q3 use ISO dates", answer("q3", "use ISO dates")],
  ["answer without id", "/answer use ISO dates", answer(null, "use ISO dates")],
  ["answer whose text starts like an id", "/answer v2 is better", answer(null, "v2 is better")],
  ["answer with id on its own line", "/answer q3\nuse ISO dates", answer("q3", "use ISO dates")],
  ["withdraw with only hidden markup after", "/withdraw <!-- why -->", withdraw()],
  // Refused with a one-line reply: a command that would otherwise do something empty.
  ["intervene without text", "/intervene", "refused"],
  ["intervene with spaces only", "/intervene   \n  \n", "refused"],
  ["intervene with a comment only", "/intervene <!-- x -->", "refused"],
  ["intervene with zero-width text only", "/intervene \u200b\u200d\ufeff", "refused"],
  [
    "intervene with a link definition only",
    '/intervene\n[x]: https://e.example "hidden"',
    "refused",
  ],
  ["intervene with control characters only", "/intervene \u0007\u0000", "refused"],
  ["answer without anything", "/answer", "refused"],
  ["answer with an id and no text", "/answer q1", "refused"],
  ["answer with an id and hidden text", "/answer q1 <!-- yes -->", "refused"],
  ["answer with an id and invisible text", "/answer q1 \u2060\u00ad", "refused"],
  // Ignored: not a command at all.
  ["empty", "", "ignored"],
  ["blank", " \n\t\n", "ignored"],
  ["prose", "Looks good to me", "ignored"],
  ["command mid-line", "please /withdraw this", "ignored"],
  ["command on a later line", "I said:\n/withdraw", "ignored"],
  ["quoted", "> /withdraw quoted from the bot", "ignored"],
  ["verb with a suffix", "/withdraw-please", "ignored"],
  ["verb with a longer word", "/withdrawal", "ignored"],
  ["verb with punctuation", "/withdraw.", "ignored"],
  ["verb with a colon", "/intervene: do X", "ignored"],
  ["indented four spaces (code)", "    /withdraw", "ignored"],
  ["indented with a tab (code)", "\t/withdraw", "ignored"],
  ["fenced code", "```\n/withdraw\n```", "ignored"],
  ["fenced with tildes", "~~~\n/withdraw\n~~~", "ignored"],
  ["inline code", "`/withdraw`", "ignored"],
  ["behind a no-break space", "\u00a0/withdraw", "ignored"],
  ["behind an ideographic space", "\u3000/withdraw", "ignored"],
  ["behind a BOM", "\ufeff/withdraw", "ignored"],
  ["behind a zero-width space", "\u200b/withdraw", "ignored"],
  ["behind an em space", "\u2003/withdraw", "ignored"],
  ["fullwidth solidus", "\uff0fwithdraw", "ignored"],
  ["division slash", "\u2215withdraw", "ignored"],
  ["Cyrillic look-alike letters", "/withdr\u0430w", "ignored"],
  ["inside an HTML comment", "<!--\n/withdraw\n-->", "ignored"],
  ["inside a link definition title", "[//]: # (/withdraw)", "ignored"],
  ["as a list item", "- /withdraw", "ignored"],
  ["as a heading", "# /withdraw", "ignored"],
  ["emphasised", "**/withdraw**", "ignored"],
  ["unknown verb", "/approve", "ignored"],
  ["double slash", "//withdraw", "ignored"],
  ["in a details block", "<details>\n/withdraw\n</details>", "ignored"],
];

describe(cases("command grammar", TABLE.length, "inputs"), () => {
  it.each(TABLE)("%s", (_name, body, expected) => {
    const parsed = parseCommand(body);
    if (expected === "ignored") {
      expect(parsed).toBeNull();
    } else if (expected === "refused") {
      expect(parsed).toMatchObject({ ok: false });
      // The reply is one line and names the command.
      const error = parsed?.ok === false ? parsed.error : "";
      expect(error).toMatch(/^`\/(intervene|answer)[^`]*` needs /);
      expect(error).not.toContain("\n");
    } else {
      expect(parsed).toEqual({ ok: true, command: expected });
    }
  });

  it("has at least the 48 inputs the suite promises, of all three outcomes", () => {
    const outcomes = new Set(TABLE.map(([, , e]) => (typeof e === "string" ? e : "accepted")));
    expect(TABLE.length).toBeGreaterThanOrEqual(48);
    expect([...outcomes].sort()).toEqual(["accepted", "ignored", "refused"]);
  });
});
