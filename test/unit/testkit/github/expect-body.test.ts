import { describe, expect, it } from "vitest";
import { bodyMismatch, expectBody } from "../../../support/github/expect-body.js";

describe("bodyMismatch", () => {
  it("matches objects partially: extra fields in the body are fine", () => {
    expect(bodyMismatch({ body: "x", extra: 1 }, { body: "x" })).toBeUndefined();
  });

  it("names the first differing field by its path", () => {
    expect(bodyMismatch({ output: { title: "a" } }, { output: { title: "b" } })).toBe(
      'body.output.title is "a", expected "b"',
    );
  });

  it("treats undefined in the pattern as 'must be absent'", () => {
    expect(bodyMismatch({ draft: true }, { draft: undefined })).toBe(
      "body.draft is true, expected it absent",
    );
    expect(bodyMismatch({}, { draft: undefined })).toBeUndefined();
  });

  it("compares arrays element by element and by length", () => {
    expect(bodyMismatch({ labels: ["cfa"] }, { labels: ["cfa"] })).toBeUndefined();
    expect(bodyMismatch({ labels: ["cfa", "x"] }, { labels: ["cfa"] })).toBe(
      'body.labels is ["cfa","x"], expected an array of 1',
    );
    expect(
      bodyMismatch({ reviewers: [{ login: "a", id: 1 }] }, { reviewers: [{ login: "b" }] }),
    ).toBe('body.reviewers[0].login is "a", expected "b"');
  });

  it("matches strings with a RegExp and values with a predicate", () => {
    expect(bodyMismatch({ body: "<!-- cfa {} -->" }, { body: /<!-- cfa / })).toBeUndefined();
    expect(bodyMismatch({ body: 3 }, { body: /x/ })).toBe(
      "body.body is 3, expected a string matching /x/",
    );
    expect(bodyMismatch({ n: 4 }, { n: (v) => typeof v === "number" && v > 3 })).toBeUndefined();
    expect(bodyMismatch({ n: 2 }, { n: (v) => typeof v === "number" && v > 3 })).toBe(
      "body.n is 2, rejected by the predicate",
    );
  });

  it("does not treat 1 and '1' as equal", () => {
    expect(bodyMismatch({ issue: "1" }, { issue: 1 })).toBe('body.issue is "1", expected 1');
  });
});

describe("expectBody", () => {
  it("is a nock body predicate", () => {
    const matches = expectBody({ content: "eyes" });
    expect(matches({ content: "eyes" })).toBe(true);
    expect(matches({ content: "+1" })).toBe(false);
  });
});
