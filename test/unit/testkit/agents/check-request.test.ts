// The checker the fake model runs on every request must itself catch what it is for.

import { describe, expect, it } from "vitest";
import type { Message } from "../../../../src/ports/model.js";
import { requestProblems } from "../../../support/agents/check-request.js";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const asks = (...ids: string[]): Message => ({
  role: "assistant",
  content: ids.map((id) => ({ type: "tool_use" as const, id, name: "read_file", input: {} })),
});
const answers = (...ids: string[]): Message => ({
  role: "user",
  content: ids.map((id) => ({ type: "tool_result" as const, tool_use_id: id, content: "r" })),
});

describe("requestProblems", () => {
  it("accepts a well-formed conversation", () => {
    expect(
      requestProblems([user("a"), asks("1", "2"), answers("1", "2"), asks("3"), answers("3")]),
    ).toEqual([]);
  });

  it.each<[string, Message[], RegExp]>([
    ["empty", [], /no messages/],
    ["starts with the assistant", [asks("1"), answers("1")], /first message/],
    ["ends with the assistant", [user("a"), asks("1")], /last message|not answered/],
    ["two user messages in a row", [user("a"), user("b")], /both user/],
    [
      "an unanswered tool_use",
      [user("a"), asks("1", "2"), answers("1")],
      /tool_use 2 is not answered/,
    ],
    [
      "a result for an unknown call",
      [user("a"), asks("1"), answers("1", "9")],
      /unknown tool_use 9/,
    ],
    ["a blank text block", [user(" ")], /blank text/],
    [
      "a reused tool_use id",
      [user("a"), asks("1"), answers("1"), asks("1"), answers("1")],
      /used twice/,
    ],
    [
      "a result after text",
      [
        user("a"),
        asks("1"),
        {
          role: "user",
          content: [
            { type: "text", text: "t" },
            { type: "tool_result", tool_use_id: "1", content: "r" },
          ],
        },
      ],
      /after a text block/,
    ],
  ])("flags %s", (_name, messages, expected) => {
    expect(requestProblems(messages).join("\n")).toMatch(expected);
  });
});
