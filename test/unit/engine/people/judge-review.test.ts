// Approval integrity: which reviews answer a gate (only an authorised person's, on the gate's
// commit), and the one-line reason when one does not.

import { describe, expect, it } from "vitest";
import { judgeReview } from "../../../../src/engine/people/judge-review.js";
import type { Permission, Review } from "../../../../src/ports/forge.js";

const gate = { artifact: ".cfa/jobs/1/INTENT.md", sha: "a".repeat(40), blob: "b".repeat(40) };

function review(overrides: Partial<Review> = {}): Review {
  return {
    id: 7,
    author: { login: "Ana", type: "User" },
    state: "APPROVED",
    body: "",
    commitId: gate.sha,
    submittedAt: "2026-11-22T10:00:00Z",
    comments: [],
    ...overrides,
  };
}

const judge = (
  r: Review,
  permission: Permission,
  more: { approvers?: string[]; blob?: string | null } = {},
) =>
  judgeReview({
    review: r,
    permission,
    approvers: more.approvers ?? [],
    prAuthor: "cfa-bot[bot]",
    gate,
    blobAtReview: more.blob === undefined ? gate.blob : more.blob,
  });

describe("judgeReview", () => {
  it.each<Permission>(["admin", "maintain", "write"])(
    "counts an approval by %s on the gate's artifact",
    (p) => {
      expect(judge(review(), p)).toEqual({ counts: true, verdict: "approved" });
    },
  );

  it("carries CHANGES_REQUESTED as a request for changes", () => {
    expect(judge(review({ state: "CHANGES_REQUESTED" }), "write")).toEqual({
      counts: true,
      verdict: "changes",
    });
  });

  it.each<Permission>(["triage", "read", "none"])("refuses %s, naming the permission", (p) => {
    const j = judge(review(), p);
    expect(j.counts).toBe(false);
    expect(!j.counts && j.reason).toContain(`you have ${p}`);
  });

  it("accepts a listed approver whatever the case of their login", () => {
    expect(judge(review(), "read", { approvers: ["ana"] }).counts).toBe(true);
  });

  it("refuses a bot, and the pull request's author", () => {
    expect(judge(review({ author: { login: "renovate[bot]", type: "Bot" } }), "admin").counts).toBe(
      false,
    );
    expect(judge(review({ author: { login: "cfa-bot[bot]", type: "User" } }), "admin").counts).toBe(
      false,
    );
  });

  it("refuses a review of a commit whose artifact differs, naming both commits", () => {
    const j = judge(review({ commitId: "c".repeat(40) }), "write", { blob: "d".repeat(40) });
    expect(j).toEqual({
      counts: false,
      reason: expect.stringContaining("`ccccccc` did not count") as unknown as string,
    });
    expect(!j.counts && j.reason).toContain("`aaaaaaa`");
  });

  it("counts a review of a later commit whose artifact is the one under review", () => {
    expect(judge(review({ commitId: "e".repeat(40) }), "write").counts).toBe(true);
  });
});
