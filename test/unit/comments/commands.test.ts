// Commands in issue comments: only the first visible line can carry one. The adversarial
// cases (code blocks, invisible prefixes, hidden markup) are in test/adversarial.

import { describe, expect, it } from "vitest";
import { parseCommand } from "../../../src/comments/commands.js";

describe("parseCommand", () => {
  it.each([
    ["/withdraw", { kind: "withdraw", reason: "withdrawn by request" }],
    ["/withdraw not needed\nafter all", { kind: "withdraw", reason: "not needed\nafter all" }],
    ["\n\n  /intervene keep the old API", { kind: "intervene", text: "keep the old API" }],
    ["/intervene\nline one\nline two", { kind: "intervene", text: "line one\nline two" }],
    ["/answer q3 use ISO dates", { kind: "answer", id: "q3", text: "use ISO dates" }],
    ["/answer use ISO dates", { kind: "answer", id: null, text: "use ISO dates" }],
    ["/answer v2 is better", { kind: "answer", id: null, text: "v2 is better" }],
    ["/pause", { kind: "pause", reason: "paused by request" }],
    ["/PAUSE back on Monday", { kind: "pause", reason: "back on Monday" }],
    ["/resume", { kind: "resume" }],
    ["/resume thanks, go on", { kind: "resume" }],
    ["/cfa also greet in French", { kind: "cfa", text: "also greet in French" }],
    [
      "/CFA\nkeep the old flag\nand document it",
      { kind: "cfa", text: "keep the old flag\nand document it" },
    ],
  ])("reads %j", (body, command) => {
    expect(parseCommand(body)).toEqual({ ok: true, command });
  });

  it.each([
    ["/intervene", "`/intervene` needs the text to deliver to the lead"],
    ["/answer   ", "`/answer` needs the answer text"],
    ["/answer q3", "`/answer q3` needs your answer after the question's id"],
    ["/cfa", "`/cfa` needs the change you want after it"],
  ])("refuses %j, saying what is missing", (body, error) => {
    const parsed = parseCommand(body);
    expect(parsed).toMatchObject({ ok: false });
    expect(parsed?.ok === false && parsed.error.startsWith(error)).toBe(true);
  });

  it.each([
    "",
    "Looks good to me",
    "> /withdraw quoted from the bot",
    "please /withdraw this",
    "/withdrawal is not a command",
    "/paused is not a command",
    "/cfa-bot is not a command",
    "> /cfa quoted",
    "> /resume quoted",
    "I said:\n/withdraw",
  ])("is not a command: %j", (body) => {
    expect(parseCommand(body)).toBeNull();
  });
});
