// The hidden block is how the bot finds its own comments again: it must round-trip, and
// anything a person could type into a comment must not pass for one.

import { describe, expect, it } from "vitest";
import { readHiddenBlock, withHiddenBlock } from "../../../src/comments/hidden-block.js";

describe("hidden block", () => {
  it("round-trips a record's block at the end of readable Markdown", () => {
    const body = withHiddenBlock("**Question `q3`**", {
      v: 1,
      job: 12,
      kind: "question",
      seq: 4,
      id: "q3",
    });
    expect(body.startsWith("**Question `q3`**\n\n<!-- cfa ")).toBe(true);
    expect(readHiddenBlock(body)).toEqual({ v: 1, job: 12, kind: "question", seq: 4, id: "q3" });
  });

  it("escapes `-->` inside values, so a value cannot end the HTML comment early", () => {
    const body = withHiddenBlock("x", { v: 1, job: 1, kind: "notice", note: "a --> b <!-- c" });
    expect(body.match(/-->/g)).toHaveLength(1);
    expect(readHiddenBlock(body)?.note).toBe("a --> b <!-- c");
  });

  it.each([
    ["no block", "just text"],
    ["a block not at the end", '<!-- cfa {"v":1,"job":1,"kind":"status"} -->\nmore text'],
    ["malformed JSON", "<!-- cfa {v:1} -->"],
    ["a wrong version", '<!-- cfa {"v":2,"job":1,"kind":"status"} -->'],
    ["a bad kind", '<!-- cfa {"v":1,"job":1,"kind":"Status!"} -->'],
    ["a __proto__ key", '<!-- cfa {"v":1,"job":1,"kind":"status","__proto__":{"x":1}} -->'],
    ["a constructor key", '<!-- cfa {"v":1,"job":1,"kind":"status","constructor":1} -->'],
    ["a nested object", '<!-- cfa {"v":1,"job":1,"kind":"status","x":{"y":1}} -->'],
  ])("ignores %s", (_what, body) => {
    expect(readHiddenBlock(body)).toBeNull();
  });
});
