import { describe, expect, it } from "vitest";
import { matchesGlob } from "../../../../src/agents/fs/index.js";

describe("matchesGlob", () => {
  it.each([
    ["src/a.ts", "*.ts", true],
    ["src/a.tsx", "*.ts", false],
    ["src/a.ts", "src/*.ts", true],
    ["src/deep/a.ts", "src/*.ts", false],
    ["src/deep/a.ts", "src/**/*.ts", true],
    ["src/a.ts", "src/**/*.ts", true],
    ["a.md", "*.{md,txt}", true],
    ["a.js", "*.{md,txt}", false],
    ["a1.ts", "a?.ts", true],
    ["ab.ts", "a[0-9].ts", false],
    ["ax.ts", "a[!0-9].ts", true],
    ["a+b.ts", "a+b.ts", true],
    ["aab.ts", "a+b.ts", false],
  ])("%s against %s is %s", (file, glob, expected) => {
    expect(matchesGlob(file, glob)).toBe(expected);
  });
});
