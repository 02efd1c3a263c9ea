import { describe, expect, it } from "vitest";
import {
  TEST_INSTALLATION_ID,
  examplePayload,
  type ExampleEventName,
} from "../../../support/github/payloads.js";

const NEEDED: readonly (readonly [ExampleEventName, string])[] = [
  ["issues", "opened"],
  ["issues", "labeled"],
  ["issues", "unlabeled"],
  ["issues", "closed"],
  ["issue_comment", "created"],
  ["issue_comment", "edited"],
  ["pull_request_review", "submitted"],
  ["pull_request_review", "dismissed"],
  ["pull_request", "closed"],
];

describe("examplePayload", () => {
  it.each(NEEDED)("has a real %s.%s payload with an installation", (event, action) => {
    const payload = examplePayload(event, action) as unknown as {
      action: string;
      installation: { id: number };
      repository: { full_name: string };
      sender: { login: string };
    };
    expect(payload.action).toBe(action);
    expect(payload.installation).toEqual({ id: TEST_INSTALLATION_ID });
    expect(payload.repository.full_name).toBe("Codertocat/Hello-World");
    expect(payload.sender.login).toBe("Codertocat");
  });

  it("derives issues.closed (absent from the package) as a closed issue", () => {
    const payload = examplePayload("issues", "closed");
    expect(payload.issue).toMatchObject({ state: "closed", state_reason: "completed" });
    expect(payload.issue.closed_at).toBe(payload.issue.updated_at);
  });

  it("deep-merges overrides and keeps repository.full_name consistent", () => {
    const payload = examplePayload("issues", "labeled", {
      repository: { name: "widgets", owner: { login: "acme" } },
      issue: { number: 42 },
      label: { name: "cfa" },
      sender: { login: "renovate[bot]", type: "Bot" },
      installation: { id: 7 },
    });
    expect(payload.repository).toMatchObject({
      name: "widgets",
      full_name: "acme/widgets",
      owner: { login: "acme" },
    });
    expect(payload.repository.owner.id).toBe(21031067);
    expect(payload.issue).toMatchObject({ number: 42, title: "Spelling error in the README file" });
    expect(payload).toMatchObject({
      label: { name: "cfa", color: "d73a4a" },
      sender: { login: "renovate[bot]", type: "Bot" },
    });
    expect(payload.installation.id).toBe(7);
  });

  it("overrides a comment body and a review's state and commit", () => {
    const comment = examplePayload("issue_comment", "created", {
      comment: { body: "/withdraw too risky" },
    });
    expect(comment.comment.body).toBe("/withdraw too risky");
    const review = examplePayload("pull_request_review", "submitted", {
      review: { state: "approved", commit_id: "0123456789abcdef0123456789abcdef01234567" },
    });
    expect(review.review).toMatchObject({
      state: "approved",
      commit_id: "0123456789abcdef0123456789abcdef01234567",
    });
  });

  it("returns an independent clone each time", () => {
    const first = examplePayload("issues", "opened", { issue: { title: "changed" } });
    first.issue.labels?.push({ name: "mutated" } as never);
    const second = examplePayload("issues", "opened");
    expect(second.issue.title).toBe("Spelling error in the README file");
    expect(second.issue.labels?.map((l) => l.name)).not.toContain("mutated");
  });

  it("fails clearly for an action the package has no example of", () => {
    expect(() => examplePayload("issues", "exploded")).toThrow(
      /^cfa\/testkit: no example payload for issues\.exploded; @octokit\/webhooks-examples has issues actions: .*opened/,
    );
    expect(() => examplePayload("issues", "opened", undefined, { variant: 99 })).toThrow(
      /variant 99 \(there are \d+\)/,
    );
  });
});
