import { describe, expect, it } from "vitest";
import { createDedupe } from "../../../src/github-events/dedupe.js";
import { jobBranch, jobOfBranch } from "../../../src/github-events/job-branch.js";

describe("the delivery and comment memory", () => {
  it("remembers keys and reports any of several", () => {
    const dedupe = createDedupe(10);
    dedupe.remember("delivery:a", "comment:1");
    expect(dedupe.seen("comment:1")).toBe(true);
    expect(dedupe.seen("comment:2", "delivery:a")).toBe(true);
    expect(dedupe.seen("comment:2")).toBe(false);
  });

  it("forgets the least recently remembered key first", () => {
    const dedupe = createDedupe(2);
    dedupe.remember("a");
    dedupe.remember("b");
    dedupe.remember("a"); // refreshed: now b is the oldest
    dedupe.remember("c");
    expect([dedupe.seen("a"), dedupe.seen("b"), dedupe.seen("c")]).toEqual([true, false, true]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => createDedupe(0)).toThrow(/positive integer/);
  });
});

describe("job branches", () => {
  it("cfa/<N> names job N; task branches and others name none", () => {
    expect(jobOfBranch("cfa/12")).toBe(12);
    expect(jobBranch(12)).toBe("cfa/12");
    for (const other of ["cfa/12-api", "cfa/012", "cfa/", "feature/cfa/1", "cfa/1/x", "main"]) {
      expect(jobOfBranch(other)).toBeNull();
    }
  });
});
