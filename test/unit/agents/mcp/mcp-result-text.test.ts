// What an MCP tool's result says to the model: text as it is, binary content named and not
// inlined, structured content when nothing else was said, and at most the limit.

import { describe, expect, it } from "vitest";
import { mcpResultText } from "../../../../src/agents/mcp/index.js";

describe("mcpResultText", () => {
  it("joins text, names images and binary resources, shows a text resource with its URI", () => {
    const result = {
      content: [
        { type: "text", text: "Echo: hello" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "A" } },
        {
          type: "resource",
          resource: { uri: "file:///b.bin", blob: "AAAA", mimeType: "application/zip" },
        },
        { type: "resource_link", uri: "file:///c.md", name: "c" },
      ],
    };
    expect(mcpResultText(result, 10_000)).toEqual({
      isError: false,
      text: [
        "Echo: hello",
        "[image image/png, 12 base64 characters: not shown]",
        "resource file:///a.txt:\nA",
        "[resource file:///b.bin application/zip: binary, not shown]",
        "resource link: file:///c.md (c)",
      ].join("\n"),
    });
  });

  it("says the structured content when there is no text, keeps isError, and cuts at the limit", () => {
    expect(mcpResultText({ content: [], structuredContent: { sum: 5 } }, 100)).toEqual({
      text: '{"sum":5}',
      isError: false,
    });
    expect(
      mcpResultText({ content: [{ type: "text", text: "no" }], isError: true }, 100).isError,
    ).toBe(true);
    expect(mcpResultText({ content: [{ type: "text", text: "abcdef" }] }, 3).text).toBe(
      "abc\n[… cut: 3 more characters]",
    );
    expect(mcpResultText(null, 10)).toEqual({ text: "", isError: false });
  });
});
