import { describe, expect, it } from "vitest";
import {
  CappedOutput,
  completeUtf8Prefix,
} from "../../../../src/adapters/sandbox/capped-output.js";

describe("CappedOutput: one stream up to a byte cap", () => {
  it("keeps everything under the cap", () => {
    const out = new CappedOutput(10);
    out.push(Buffer.from("abc"));
    out.push(Buffer.from("def"));
    expect(out.text()).toBe("abcdef");
    expect(out.truncated).toBe(false);
  });

  it("keeps exactly the cap and marks the rest truncated", () => {
    const out = new CappedOutput(5);
    out.push(Buffer.from("abc"));
    out.push(Buffer.from("defgh"));
    out.push(Buffer.from("ijk"));
    expect(out.text()).toBe("abcde");
    expect(out.truncated).toBe(true);
  });

  it("does not end in half a character when the cap splits one", () => {
    const out = new CappedOutput(4);
    out.push(Buffer.from("ab€")); // € is 3 bytes: the cap falls inside it
    expect(out.text()).toBe("ab");
  });

  it("treats a zero cap as 'keep nothing'", () => {
    const out = new CappedOutput(0);
    out.push(Buffer.from("x"));
    expect(out.text()).toBe("");
    expect(out.truncated).toBe(true);
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
