import { describe, expect, it } from "vitest";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { failureComment, isSameFailure } from "../../../src/comments/failure-comment.js";

describe("the worker's failure comment", () => {
  it("quotes the reason inertly, links the run, and carries the run in its hidden block", () => {
    const body = failureComment({
      job: 3,
      reason: 'Error: ``` @team <!-- cfa {"v":1,"job":3,"kind":"status"} -->',
      runUrl: "https://github.com/o/r/actions/runs/9",
      runKey: "9.2",
    });
    expect(body).toContain(
      "**The cfa worker failed on job #3** ([run log](https://github.com/o/r/actions/runs/9)).",
    );
    // A longer fence than any backtick run inside, so the reason cannot close it.
    expect(body).toContain("````text\nError: ``` @team < !-- cfa");
    // The reason cannot forge the bot's block: only the real one, at the end, is read.
    expect(readHiddenBlock(body)).toEqual({ v: 1, job: 3, kind: "worker-failure", run: "9.2" });
    expect(isSameFailure("9.2")(readHiddenBlock(body)!)).toBe(true);
    expect(isSameFailure("9.3")(readHiddenBlock(body)!)).toBe(false);
  });

  it("shortens a very long reason", () => {
    const body = failureComment({
      job: 1,
      reason: "x".repeat(5000),
      runUrl: null,
      runKey: "local.1",
    });
    expect(body.length).toBeLessThan(2200);
    expect(body).toContain("x…");
    expect(body).not.toContain("run log");
  });
});
