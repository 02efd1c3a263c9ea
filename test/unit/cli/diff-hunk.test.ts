// An inline comment's diff hunk, as GitHub gives `diff_hunk`: the hunk's header down to the
// commented line (new side); a line the diff does not show is none.

import { describe, expect, it } from "vitest";
import { hunkDownTo } from "../../../src/cli/diff-hunk.js";

const DIFF = [
  "diff --git a/src/a.js b/src/a.js",
  "index 1111111..2222222 100644",
  "--- a/src/a.js",
  "+++ b/src/a.js",
  "@@ -1,4 +1,5 @@",
  " one",
  "-two",
  "+TWO",
  "+two and a half",
  " three",
  " four",
  "@@ -20,3 +21,3 @@ export function f() {",
  " twenty",
  "-old",
  "+new",
  "\\ No newline at end of file",
].join("\n");

describe("hunkDownTo", () => {
  it("cuts the hunk after the commented line, counting new-side lines only", () => {
    expect(hunkDownTo(DIFF, 3)).toBe(
      ["@@ -1,4 +1,5 @@", " one", "-two", "+TWO", "+two and a half"].join("\n"),
    );
    expect(hunkDownTo(DIFF, 1)).toBe(["@@ -1,4 +1,5 @@", " one"].join("\n"));
  });

  it("finds a line in a later hunk, from that hunk's header", () => {
    expect(hunkDownTo(DIFF, 22)).toBe(
      ["@@ -20,3 +21,3 @@ export function f() {", " twenty", "-old", "+new"].join("\n"),
    );
  });

  it("a line the diff does not show is none (GitHub refuses a comment there)", () => {
    expect(hunkDownTo(DIFF, 10)).toBeNull();
    expect(hunkDownTo("", 1)).toBeNull();
  });
});
