// Why a request after a job ended starts no follow-up (docs/protocol.md#jobs-and-states), in
// the one reply the person gets, found again by its hidden block.

import { describe, expect, it } from "vitest";
import {
  followUpBlocked,
  followUpRefusalComment,
  isSameFollowUpRefusal,
} from "../../../src/comments/follow-up-comments.js";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";

const open = { state: "open" as const, labels: ["cfa"] };
const pull = { number: 12, state: "open" as const, merged: false };
const blocked = (over: Partial<Parameters<typeof followUpBlocked>[0]>) =>
  followUpBlocked({ job: 7, label: "cfa", state: "DONE", issue: open, pull, ...over });

describe("followUpBlocked", () => {
  it("lets a follow-up start after DONE or WITHDRAWN, the pull request open, the issue open and labelled", () => {
    expect(blocked({})).toBeNull();
    expect(blocked({ state: "WITHDRAWN" })).toBeNull();
    // Withdrawn before any pull request was opened: the follow-up opens one.
    expect(blocked({ state: "WITHDRAWN", pull: null })).toBeNull();
  });

  it.each([
    [{ state: "FAILURE" }, "ended in FAILURE"],
    [
      {
        pull: { ...pull, state: "closed" as const, merged: true },
        issue: { ...open, state: "closed" as const },
      },
      "is merged, so it takes no follow-up. Open a new issue",
    ],
    [{ pull: { ...pull, state: "closed" as const } }, "pull request #12 is closed. Reopen it"],
    [{ issue: { ...open, state: "closed" as const } }, "issue #7 is closed. Reopen it"],
    [{ issue: { ...open, labels: [] } }, "no longer carries the `cfa` label"],
  ])("refuses %j, saying what to do", (over, words) => {
    expect(blocked(over)).toContain(words);
  });
});

describe("the refusal's reply", () => {
  it("names the request it answers, so a later wake finds it and does not answer twice", () => {
    const body = followUpRefusalComment({
      job: 7,
      about: { review: 81 },
      login: "ana",
      reason: "x",
    });
    const block = readHiddenBlock(body)!;
    expect(block).toMatchObject({ job: 7, kind: "follow-up-refused", review: 81 });
    expect(isSameFollowUpRefusal({ review: 81 })(block)).toBe(true);
    expect(isSameFollowUpRefusal({ review: 82 })(block)).toBe(false);
    expect(isSameFollowUpRefusal({ comment: 81 })(block)).toBe(false);
  });
});
