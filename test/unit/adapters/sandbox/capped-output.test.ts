import { describe, expect, it } from "vitest";
import {
  CappedOutput,
  completeUtf8Prefix,
} from "../../../../src/adapters/sandbox/capped-output.js";

describe("CappedOutput: one stream up to a byte cap", () => {
  it.each([
    {
      title: "keeps everything under the cap",
      cap: 10,
      chunks: ["abc", "def"],
      text: "abcdef",
      truncated: false,
    },
    {
      title: "keeps exactly the cap and marks the rest truncated",
      cap: 5,
      chunks: ["abc", "defgh", "ijk"],
      text: "abcde",
      truncated: true,
    },
    // € is 3 bytes: the cap falls inside it.
    {
      title: "does not end in half a character when the cap splits one",
      cap: 4,
      chunks: ["ab€"],
      text: "ab",
      truncated: true,
    },
    {
      title: "treats a zero cap as 'keep nothing'",
      cap: 0,
      chunks: ["x"],
      text: "",
      truncated: true,
    },
  ])("$title", ({ cap, chunks, text, truncated }) => {
    const out = new CappedOutput(cap);
    for (const chunk of chunks) out.push(Buffer.from(chunk));
    expect(out.text()).toBe(text);
    expect(out.truncated).toBe(truncated);
  });
});

describe("completeUtf8Prefix", () => {
  it.each([
    ["a", 1, "a"],
    ["é", 1, ""],
    ["é", 2, "é"],
    ["a😀", 4, "a"],
    ["a😀", 5, "a😀"],
  ])("%s cut at %d bytes decodes to %j", (text, bytes, expected) => {
    expect(completeUtf8Prefix(Buffer.from(text).subarray(0, bytes)).toString("utf8")).toBe(
      expected,
    );
  });
});
