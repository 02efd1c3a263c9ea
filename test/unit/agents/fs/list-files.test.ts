import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listFiles } from "../../../../src/agents/fs/index.js";
import { openDirInside } from "../../../../src/agents/fs/anchored-dir.js";
import { makeWorkspace, type Sandbox } from "../../../support/agents/fs-workspace.js";

let ws: Sandbox;
beforeEach(() => {
  ws = makeWorkspace({
    "README.md": "# r\n",
    "src/a.ts": "a",
    "src/deep/b.ts": "b",
    ".git/config": "[core]",
    ".GIT/x": "x",
    "vendor/.git/HEAD": "ref",
    "vendor/lib.js": "l",
  });
  mkdirSync(path.join(ws.outside, "d"));
  writeFileSync(path.join(ws.outside, "d", "secret"), "s");
  symlinkSync(ws.outside, ws.at("out"));
});
afterEach(() => ws.cleanup());

describe("listFiles", () => {
  it("lists one level, sorted, without .git, links shown but not followed", async () => {
    await expect(listFiles(ws.root)).resolves.toEqual({
      entries: [
        { path: "README.md", type: "file" },
        { path: "out", type: "symlink" },
        { path: "src", type: "dir" },
        { path: "vendor", type: "dir" },
      ],
      truncated: false,
      tooDeep: 0,
    });
  });

  it.each([
    [
      "lists recursively, skipping nested .git and never descending a link",
      "",
      [
        "README.md",
        "out",
        "src",
        "src/a.ts",
        "src/deep",
        "src/deep/b.ts",
        "vendor",
        "vendor/lib.js",
      ],
    ],
    [
      "lists a subdirectory with root-relative paths",
      "src",
      ["src/a.ts", "src/deep", "src/deep/b.ts"],
    ],
  ])("%s", async (_title, dir, paths) => {
    const listed = await listFiles(ws.root, dir, { recursive: true });
    expect(listed.entries.map((entry) => entry.path)).toEqual(paths);
  });

  it("stops at the limit and says so", async () => {
    await expect(listFiles(ws.root, "", { recursive: true, limit: 3 })).resolves.toMatchObject({
      entries: [{ path: "README.md" }, { path: "out" }, { path: "src" }],
      truncated: true,
    });
  });

  it("refuses to list outside, through a link, or .git", async () => {
    await expect(listFiles(ws.root, "..")).rejects.toMatchObject({ reason: "outside" });
    await expect(listFiles(ws.root, "out/d")).rejects.toMatchObject({ reason: "outside" });
    await expect(listFiles(ws.root, ".git")).rejects.toMatchObject({ reason: "git-dir" });
  });

  it("refuses a file as a directory", async () => {
    await expect(listFiles(ws.root, "README.md")).rejects.toMatchObject({
      name: "FileToolError",
      code: "not-a-directory",
    });
  });

  it.runIf(process.platform === "linux")("anchors lookups to descriptors on Linux", async () => {
    const dir = await openDirInside(ws.root, "src", { create: false, requested: "src" });
    try {
      expect(dir.mode).toBe("proc");
    } finally {
      await dir.close();
    }
  });
});
