import { describe, expect, it } from "vitest";
import {
  COMMENT_LIMIT,
  fitComment,
  neutralizeMentions,
} from "../../../src/comments/comment-text.js";
import { readHiddenBlock, withHiddenBlock } from "../../../src/comments/hidden-block.js";

describe("neutralizeMentions", () => {
  it("keeps @mentions readable but inert", () => {
    expect(neutralizeMentions("ask @ana and @org/team")).toBe("ask @\u200bana and @\u200borg/team");
  });
  it("leaves e-mail addresses and code alone", () => {
    expect(neutralizeMentions("mail a@b.c, run `npm i @x/y`")).toBe("mail a@b.c, run `npm i @x/y`");
  });
});

describe("fitComment", () => {
  it("leaves a comment within GitHub's limit as it is", () => {
    expect(fitComment("short")).toBe("short");
  });

  it("trims an over-long comment, says where the full text is, and keeps the hidden block", () => {
    const body = withHiddenBlock("x".repeat(100_000), { v: 1, job: 2, kind: "gate", seq: 5 });
    const fitted = fitComment(body, ".cfa/jobs/2");
    expect(fitted.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(fitted).toContain("the full text is in .cfa/jobs/2");
    expect(readHiddenBlock(fitted)).toEqual({ v: 1, job: 2, kind: "gate", seq: 5 });
  });
});
