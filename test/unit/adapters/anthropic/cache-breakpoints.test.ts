import { describe, expect, it } from "vitest";
import { buildMessageParams } from "../../../../src/adapters/anthropic/build-request.js";
import { messageBreakpoints } from "../../../../src/adapters/anthropic/cache-breakpoints.js";
import type { Message } from "../../../../src/ports/model.js";
import { baseRequest, markerPaths } from "../../../support/anthropic/api-fixtures.js";

const u: Message = { role: "user", content: [{ type: "text", text: "u" }] };
const a: Message = { role: "assistant", content: [{ type: "text", text: "a" }] };

describe("cache breakpoints", () => {
  it("mark the last message, and the message before the previous assistant reply", () => {
    expect(messageBreakpoints([])).toEqual([]);
    expect(messageBreakpoints([u])).toEqual([0]);
    expect(messageBreakpoints([u, a, u])).toEqual([0, 2]);
    expect(messageBreakpoints([u, a, u, a, u])).toEqual([2, 4]);
    // Two user messages in a row: still the one right before the reply.
    expect(messageBreakpoints([u, u, a, u])).toEqual([1, 3]);
  });

  it("never exceed the API's 4 per request, and skip what a request does not have", () => {
    const long = [u, a, u, a, u, a, u];
    const body = JSON.stringify(buildMessageParams(baseRequest({ messages: long })));
    expect(markerPaths(body)).toHaveLength(4);

    const bare = JSON.stringify(
      buildMessageParams(baseRequest({ messages: long, tools: [], system: "" })),
    );
    expect(markerPaths(bare)).toEqual(["messages[4].content[0]", "messages[6].content[0]"]);
    expect(JSON.parse(bare)).not.toHaveProperty("tools");
    expect(JSON.parse(bare)).not.toHaveProperty("system");
  });

  it("mark the last block of a message with several blocks", () => {
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "one" },
          { type: "tool_result", tool_use_id: "t2", content: "two", is_error: true },
          { type: "text", text: "and a note" },
        ],
      },
    ];
    const body = JSON.stringify(buildMessageParams(baseRequest({ messages })));
    expect(markerPaths(body)).toContain("messages[0].content[2]");
    expect(markerPaths(body)).not.toContain("messages[0].content[1]");
  });
});
