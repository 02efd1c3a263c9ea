import { describe, expect, it } from "vitest";
import { relativeToWorkspace } from "../../../../src/agents/commands/index.js";

describe("relativeToWorkspace: a command's output names no folder of the runner's", () => {
  const root = "/home/runner/.cache/cfa-bot/work/repo/1/task-a";

  it.each([
    [`    at ${root}/test/x.test.js:3:7`, "    at ./test/x.test.js:3:7"],
    [`cwd: ${root}\n`, "cwd: .\n"],
    [`"${root}"`, '"."'],
    [`${root}:1 error`, ".:1 error"],
  ])("%s", (text, expected) => {
    expect(relativeToWorkspace(text, root)).toBe(expected);
  });

  it("leaves a sibling whose name starts like it, and text without it, as they are", () => {
    expect(relativeToWorkspace(`${root}b/x.js`, root)).toBe(`${root}b/x.js`);
    expect(relativeToWorkspace("ok 3 tests", root)).toBe("ok 3 tests");
  });
});
