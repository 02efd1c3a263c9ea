import { describe, expect, it } from "vitest";
import { InvalidPushError, validatePush } from "../../../../src/adapters/github/index.js";
import { HEAD_SHA } from "../../../support/github/github-shapes.js";

describe("validatePush", () => {
  it("accepts job and task branches with full commit ids", () => {
    expect(() => validatePush("cfa/12", { sha: HEAD_SHA, expectedOld: null })).not.toThrow();
    expect(() => validatePush("cfa/12-t3", { sha: HEAD_SHA, expectedOld: HEAD_SHA })).not.toThrow();
  });

  it.each([
    ["--upload-pack=evil", "starts with '-'"],
    ["a..b", "'..'"],
    ["a b", "space"],
    ["x:y", "space, a control character"],
    ["cfa/.hidden", "starts with '.'"],
    ["cfa/1.lock", ".lock"],
    ["", "empty"],
  ])("refuses the branch name %j", (branch, why) => {
    expect(() => validatePush(branch, { sha: HEAD_SHA, expectedOld: null })).toThrow(
      InvalidPushError,
    );
    expect(() => validatePush(branch, { sha: HEAD_SHA, expectedOld: null })).toThrow(why);
  });

  it("refuses anything but a full commit id", () => {
    expect(() => validatePush("cfa/1", { sha: "HEAD", expectedOld: null })).toThrow(/sha "HEAD"/);
    expect(() => validatePush("cfa/1", { sha: HEAD_SHA, expectedOld: "6dcb09b" })).toThrow(
      /expectedOld "6dcb09b" is not a full commit id/,
    );
  });
});
