import { describe, expect, it } from "vitest";
import { buildMessageParams } from "../../../../src/adapters/anthropic/build-request.js";
import { messageBreakpoints } from "../../../../src/adapters/anthropic/cache-breakpoints.js";
import type { Message, ModelRequest } from "../../../../src/ports/model.js";
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

// One cached prefix across roles (src/adapters/anthropic/cache-breakpoints.ts): the tools
// roles open with alike, the instructions, the role's block apart from the instance's own.
describe("cache breakpoints of a request in the shared layout", () => {
  const editor = {
    type: "text_editor_20250728" as const,
    name: "str_replace_based_edit_tool" as const,
  };
  const bash = { type: "bash_20250124" as const, name: "bash" as const };
  const custom = (name: string) => ({
    name,
    description: name,
    input_schema: { type: "object" },
  });
  const shared = (overrides: Partial<ModelRequest> = {}) =>
    baseRequest({
      tools: [editor, bash, custom("ask_question"), custom("dispatch"), custom("reply")],
      instructions: "# The repository's instructions\n",
      rolePrompt: "You are a worker.",
      system: "",
      sharedTools: 4,
      sharedCacheLifetime: "1h",
      ...overrides,
    });
  const markers = (request: ModelRequest) => {
    const body = buildMessageParams(request) as unknown as {
      tools: { cache_control?: { ttl?: string } }[];
      system: { cache_control?: { ttl?: string } }[];
    };
    return {
      paths: markerPaths(JSON.stringify(body)),
      ttls: [...body.tools, ...body.system]
        .filter((b) => b.cache_control)
        .map((b) => b.cache_control!.ttl ?? "5m"),
    };
  };

  it("marks the longest prefix shared with another role and, with room, the end of Anthropic's tools", () => {
    expect(markers(shared()).paths).toEqual([
      "tools[1]",
      "tools[3]",
      "system[1]",
      "messages[0].content[0]",
    ]);
  });

  it("gives what the job shares an hour, before the request's own lifetime, as the API requires", () => {
    expect(markers(shared()).ttls).toEqual(["1h", "1h", "5m"]);
    expect(markers(shared({ cacheLifetime: "1h" })).ttls).toEqual(["1h", "1h", "1h"]);
  });

  it("marks a lead's role block apart from its phase skill, leaving one tool marker", () => {
    const lead = shared({ system: "# The PLAN skill\n" });
    expect(markers(lead).paths).toEqual([
      "tools[3]",
      "system[1]",
      "system[2]",
      "messages[0].content[0]",
    ]);
  });

  it("keeps reaching the previous request's entry when the last round added 20 blocks or more", () => {
    const calls = Array.from({ length: 10 }, (_, i) => ({
      type: "tool_use" as const,
      id: `t${i}`,
      name: "bash",
      input: {},
    }));
    const results = calls.map((c) => ({
      type: "tool_result" as const,
      tool_use_id: c.id,
      content: "ok",
    }));
    const long = shared({
      messages: [u, { role: "assistant", content: calls }, { role: "user", content: results }],
    });
    const paths = markers(long).paths;
    expect(paths).toContain("messages[0].content[0]");
    expect(paths).toHaveLength(4);
  });
});
