import { linkSync, mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BoundaryError } from "../../../../src/agents/boundary/index.js";
import { FileToolError, readFile, readFileBytes } from "../../../../src/agents/fs/index.js";
import { verifyOpened } from "../../../../src/agents/fs/verify-opened.js";
import { MODES, makeWorkspace, type Sandbox } from "../../../support/agents/fs-workspace.js";

let ws: Sandbox;
beforeEach(() => {
  ws = makeWorkspace({ "sub/file.txt": "inside\n", "big.txt": "0123456789" });
  writeFileSync(path.join(ws.outside, "file.txt"), "outside secret\n");
});
afterEach(() => ws.cleanup());

describe("readFile", () => {
  it("reads a file inside the workspace", async () => {
    await expect(readFile(ws.root, "sub/file.txt")).resolves.toEqual({
      path: "sub/file.txt",
      content: "inside\n",
      size: 7,
      truncated: false,
    });
  });

  it("stops at maxBytes and says so", async () => {
    const read = await readFileBytes(ws.root, "big.txt", { maxBytes: 4 });
    expect(read.bytes.toString()).toBe("0123");
    expect(read).toMatchObject({ size: 10, truncated: true });
  });

  it("names a missing file", async () => {
    await expect(readFile(ws.root, "nope.txt")).rejects.toMatchObject({
      name: "FileToolError",
      code: "not-found",
    });
  });

  it("refuses a directory", async () => {
    await expect(readFile(ws.root, "sub")).rejects.toBeInstanceOf(FileToolError);
    await expect(readFile(ws.root, "")).rejects.toMatchObject({ code: "is-a-directory" });
  });

  it("refuses an escape before touching anything", async () => {
    await expect(readFile(ws.root, "../outside/file.txt")).rejects.toMatchObject({
      name: "BoundaryError",
      reason: "outside",
    });
  });

  it("reads a protected path (read-only, not hidden)", async () => {
    writeFileSync(ws.at(".cfa-state"), "x");
    await expect(
      readFile(ws.root, ".cfa-state", { protect: [".cfa-state"] }),
    ).resolves.toMatchObject({ content: "x" });
  });

  describe.each(MODES)("a swap between check and open ($mode lookups)", ({ pathOnly }) => {
    it("refuses when a parent directory becomes a link out", async () => {
      const swap = (): void => {
        renameSync(ws.at("sub"), ws.at("sub-moved"));
        symlinkSync(ws.outside, ws.at("sub"));
      };
      await expect(
        readFile(ws.root, "sub/file.txt", { seam: { beforeOpen: swap, pathOnly } }),
      ).rejects.toMatchObject({ name: "BoundaryError", reason: "changed" });
    });

    it("refuses when the file itself becomes a link out", async () => {
      const swap = (): void => {
        unlinkSync(ws.at("sub/file.txt"));
        symlinkSync(path.join(ws.outside, "file.txt"), ws.at("sub/file.txt"));
      };
      await expect(
        readFile(ws.root, "sub/file.txt", { seam: { beforeOpen: swap, pathOnly } }),
      ).rejects.toMatchObject({ name: "BoundaryError", reason: "changed" });
    });

    it("refuses when the file gains a hard link", async () => {
      const link = (): void => linkSync(ws.at("sub/file.txt"), path.join(ws.outside, "alias"));
      await expect(
        readFile(ws.root, "sub/file.txt", { seam: { beforeOpen: link, pathOnly } }),
      ).rejects.toMatchObject({ name: "BoundaryError", reason: "hard-link" });
    });
  });
});

describe("verifyOpened (the re-check after open)", () => {
  it("refuses a handle whose path was swapped for a link after it was opened", async () => {
    const expected = ws.at("sub/file.txt");
    const handle = await open(expected, "r");
    try {
      renameSync(ws.at("sub"), ws.at("sub-moved"));
      mkdirSync(path.join(ws.outside, "sub"));
      writeFileSync(path.join(ws.outside, "sub", "file.txt"), "decoy");
      symlinkSync(path.join(ws.outside, "sub"), ws.at("sub"));
      await expect(verifyOpened(handle, expected, "sub/file.txt")).rejects.toBeInstanceOf(
        BoundaryError,
      );
    } finally {
      await handle.close();
    }
  });

  it("accepts the handle of the checked file", async () => {
    const expected = ws.at("sub/file.txt");
    const handle = await open(expected, "r");
    try {
      await expect(verifyOpened(handle, expected, "sub/file.txt")).resolves.toMatchObject({
        size: 7,
      });
    } finally {
      await handle.close();
    }
  });
});
