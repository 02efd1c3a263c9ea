import { describe, expect, it } from "vitest";
import { titleOf } from "../../../../src/cli/commands/run.js";

describe("titleOf", () => {
  it("is the request's first line", () => {
    expect(titleOf("\nAdd a --json flag\nso scripts can parse it")).toBe("Add a --json flag");
  });

  it("cuts a long first line at a word, with an ellipsis", () => {
    const title = titleOf(`Add ${"very ".repeat(30)}long things`);
    expect(title.length).toBeLessThanOrEqual(73);
    expect(title.endsWith("very…")).toBe(true);
  });
});
