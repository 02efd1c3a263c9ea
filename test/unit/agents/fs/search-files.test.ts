import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { searchFiles } from "../../../../src/agents/fs/index.js";
import { makeWorkspace, type Sandbox } from "../../../support/agents/fs-workspace.js";

let ws: Sandbox;
beforeEach(() => {
  ws = makeWorkspace({
    "src/a.ts": "export const needle = 1;\nconst other = 2;\n// NEEDLE again\n",
    "src/b.md": "a needle in markdown\n",
    "docs/c.ts": "no match here\r\nneedle on line two\r\n",
    "bin.dat": Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2])]),
    ".git/config": "needle in git config\n",
    "vendor/.git/HEAD": "needle\n",
  });
  writeFileSync(path.join(ws.outside, "secret"), "needle outside\n");
  symlinkSync(ws.outside, ws.at("out"));
  symlinkSync(path.join(ws.outside, "secret"), ws.at("secret-link"));
});
afterEach(() => ws.cleanup());

describe("searchFiles", () => {
  it("finds plain text with line numbers, skipping .git, binaries and links", async () => {
    await expect(searchFiles(ws.root, "needle")).resolves.toEqual({
      matches: [
        { path: "docs/c.ts", line: 2, text: "needle on line two" },
        { path: "src/a.ts", line: 1, text: "export const needle = 1;" },
        { path: "src/b.md", line: 1, text: "a needle in markdown" },
      ],
      truncated: false,
      skipped: 1,
      tooDeep: 0,
    });
  });

  it("treats regex characters literally unless asked", async () => {
    await expect(searchFiles(ws.root, "needle.*1")).resolves.toMatchObject({ matches: [] });
    const found = await searchFiles(ws.root, "needle.*1", { regex: true });
    expect(found.matches).toEqual([
      { path: "src/a.ts", line: 1, text: "export const needle = 1;" },
    ]);
  });

  it("ignores case when asked", async () => {
    const found = await searchFiles(ws.root, "NEEDLE", { ignoreCase: true, glob: "a.ts" });
    expect(found.matches.map((match) => match.line)).toEqual([1, 3]);
  });

  it("filters by glob, by name or by path", async () => {
    const byName = await searchFiles(ws.root, "needle", { glob: "*.ts" });
    expect(byName.matches.map((match) => match.path)).toEqual(["docs/c.ts", "src/a.ts"]);
    const byPath = await searchFiles(ws.root, "needle", { glob: "src/**/*.{md,txt}" });
    expect(byPath.matches.map((match) => match.path)).toEqual(["src/b.md"]);
  });

  it("searches below a path, or one file", async () => {
    const below = await searchFiles(ws.root, "needle", { path: "src" });
    expect(below.matches.map((match) => match.path)).toEqual(["src/a.ts", "src/b.md"]);
    const one = await searchFiles(ws.root, "needle", { path: "docs/c.ts" });
    expect(one.matches).toEqual([{ path: "docs/c.ts", line: 2, text: "needle on line two" }]);
  });

  it("stops at the limit and says so", async () => {
    await expect(searchFiles(ws.root, "needle", { limit: 2 })).resolves.toMatchObject({
      truncated: true,
      matches: [{ path: "docs/c.ts" }, { path: "src/a.ts" }],
    });
  });

  it("refuses an invalid regex and an escape", async () => {
    await expect(searchFiles(ws.root, "(", { regex: true })).rejects.toMatchObject({
      name: "FileToolError",
      code: "invalid-pattern",
    });
    await expect(searchFiles(ws.root, "needle", { path: "out" })).rejects.toMatchObject({
      name: "BoundaryError",
      reason: "outside",
    });
  });
});
