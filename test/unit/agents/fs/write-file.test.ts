import {
  chmodSync,
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFile } from "../../../../src/agents/fs/index.js";
import { makeWorkspace, type Sandbox } from "../../../support/agents/fs-workspace.js";

let ws: Sandbox;
beforeEach(() => {
  ws = makeWorkspace({ "sub/file.txt": "old\n", ".cfa/state.json": "{}" });
  writeFileSync(path.join(ws.outside, "victim"), "untouched\n");
});
afterEach(() => ws.cleanup());

const leftovers = (dir: string): string[] =>
  readdirSync(dir).filter((name) => name.startsWith(".cfa-tmp-"));

describe("writeFile", () => {
  it("creates nested parent directories inside the root", async () => {
    await expect(writeFile(ws.root, "a/b/c/new.txt", "hello")).resolves.toEqual({
      path: "a/b/c/new.txt",
      bytes: 5,
      created: true,
    });
    expect(readFileSync(ws.at("a/b/c/new.txt"), "utf8")).toBe("hello");
  });

  it("writes unicode names and binary content", async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    await writeFile(ws.root, "ünï/文件.bin", bytes);
    expect(readFileSync(ws.at("ünï/文件.bin")).equals(bytes)).toBe(true);
  });

  it("replaces by rename: a new inode, the old mode kept, no temp file left", async () => {
    chmodSync(ws.at("sub/file.txt"), 0o600);
    const before = statSync(ws.at("sub/file.txt"));
    await expect(writeFile(ws.root, "sub/file.txt", "new\n")).resolves.toMatchObject({
      created: false,
    });
    const after = statSync(ws.at("sub/file.txt"));
    expect(readFileSync(ws.at("sub/file.txt"), "utf8")).toBe("new\n");
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o600);
    expect(leftovers(ws.at("sub"))).toEqual([]);
  });

  it("refuses to write over a directory, leaving it and no temp file", async () => {
    await expect(writeFile(ws.root, "sub", "data")).rejects.toMatchObject({
      name: "FileToolError",
      code: "is-a-directory",
    });
    expect(leftovers(ws.root)).toEqual([]);
    expect(readFileSync(ws.at("sub/file.txt"), "utf8")).toBe("old\n");
  });

  it("refuses protected paths and leaves them unchanged", async () => {
    await expect(
      writeFile(ws.root, ".cfa/state.json", "forged", { protect: [".cfa/"] }),
    ).rejects.toMatchObject({ name: "BoundaryError", reason: "protected" });
    expect(readFileSync(ws.at(".cfa/state.json"), "utf8")).toBe("{}");
  });

  it("refuses to write below a file", async () => {
    await expect(writeFile(ws.root, "sub/file.txt/x", "data")).rejects.toMatchObject({
      name: "FileToolError",
      code: "not-a-directory",
    });
  });

  it("writes through a dangling link inside to its target", async () => {
    symlinkSync("sub/target.txt", ws.at("pointer"));
    await writeFile(ws.root, "pointer", "via link");
    expect(readFileSync(ws.at("sub/target.txt"), "utf8")).toBe("via link");
  });

  describe("a swap between check and open (lookups anchored by /proc/self/fd)", () => {
    it("refuses when a parent directory becomes a link out, and writes nothing outside", async () => {
      const swap = (): void => {
        renameSync(ws.at("sub"), ws.at("sub-moved"));
        symlinkSync(ws.outside, ws.at("sub"));
      };
      await expect(
        writeFile(ws.root, "sub/victim", "pwned", { seam: { beforeOpen: swap } }),
      ).rejects.toMatchObject({ name: "BoundaryError", reason: "changed" });
      expect(readFileSync(path.join(ws.outside, "victim"), "utf8")).toBe("untouched\n");
      expect(leftovers(ws.outside)).toEqual([]);
    });

    it("refuses when a missing parent appears as a link out", async () => {
      const plant = (): void => symlinkSync(ws.outside, ws.at("fresh"));
      await expect(
        writeFile(ws.root, "fresh/new.txt", "x", { seam: { beforeOpen: plant } }),
      ).rejects.toMatchObject({ name: "BoundaryError", reason: "changed" });
      expect(existsSync(path.join(ws.outside, "new.txt"))).toBe(false);
    });

    it("replaces a link swapped in at the target instead of writing through it", async () => {
      const swap = (): void => {
        unlinkSync(ws.at("sub/file.txt"));
        symlinkSync(path.join(ws.outside, "victim"), ws.at("sub/file.txt"));
      };
      await writeFile(ws.root, "sub/file.txt", "new", { seam: { beforeOpen: swap } });
      expect(readFileSync(path.join(ws.outside, "victim"), "utf8")).toBe("untouched\n");
      expect(readFileSync(ws.at("sub/file.txt"), "utf8")).toBe("new");
    });
  });

  // By path alone a raced create can land outside before any check sees it, so without /proc
  // nothing is created: refused up front, nothing left anywhere.
  describe("without /proc (path lookups)", () => {
    const pathOnly = { pathOnly: true } as const;
    const everything = (dir: string): string[] =>
      readdirSync(dir, { recursive: true }).map(String).sort();

    it.each([
      ["a file at the root", "new.txt"],
      ["a file in an existing folder", "sub/file.txt"],
      ["a file in new folders", "a/b/new.txt"],
    ])("refuses %s before creating anything", async (_title, target) => {
      const before = everything(ws.root);
      await expect(writeFile(ws.root, target, "x", { seam: pathOnly })).rejects.toMatchObject({
        name: "FileToolError",
        code: "unanchored",
      });
      expect(everything(ws.root)).toEqual(before);
      expect(everything(ws.outside)).toEqual(["victim"]);
      expect(readFileSync(ws.at("sub/file.txt"), "utf8")).toBe("old\n");
    });

    it("refuses even when a parent is swapped for a link out in the window", async () => {
      const swap = (): void => {
        renameSync(ws.at("sub"), ws.at("sub-moved"));
        symlinkSync(ws.outside, ws.at("sub"));
      };
      await expect(
        writeFile(ws.root, "sub/deep/new.txt", "x", { seam: { beforeOpen: swap, pathOnly: true } }),
      ).rejects.toBeDefined();
      expect(everything(ws.outside)).toEqual(["victim"]);
      expect(readFileSync(path.join(ws.outside, "victim"), "utf8")).toBe("untouched\n");
    });
  });
});
