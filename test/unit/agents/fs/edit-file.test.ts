import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editFile } from "../../../../src/agents/fs/index.js";
import { makeWorkspace, type Sandbox } from "../../../support/agents/fs-workspace.js";

let ws: Sandbox;
beforeEach(() => {
  ws = makeWorkspace({
    "src/a.ts": "const a = 1;\nconst b = 2;\nconst a2 = 1;\n",
    ".cfa/state.json": "{}",
    "bin.dat": Buffer.from([0xff, 0xfe, 0x00]),
  });
});
afterEach(() => ws.cleanup());

describe("editFile", () => {
  it("replaces exactly one occurrence and reports its line", async () => {
    await expect(editFile(ws.root, "src/a.ts", "const b = 2;", "const b = 3;")).resolves.toEqual({
      path: "src/a.ts",
      line: 2,
    });
    expect(readFileSync(ws.at("src/a.ts"), "utf8")).toBe(
      "const a = 1;\nconst b = 3;\nconst a2 = 1;\n",
    );
  });

  it("keeps $ patterns in the new text literal", async () => {
    await editFile(ws.root, "src/a.ts", "const b = 2;", "const b = `$&$1`;");
    expect(readFileSync(ws.at("src/a.ts"), "utf8")).toContain("const b = `$&$1`;");
  });

  it("refuses when the text is not found, and changes nothing", async () => {
    await expect(editFile(ws.root, "src/a.ts", "const c", "x")).rejects.toMatchObject({
      name: "FileToolError",
      code: "no-match",
    });
    expect(readFileSync(ws.at("src/a.ts"), "utf8")).toContain("const b = 2;");
  });

  it("refuses an ambiguous match and says how many", async () => {
    await expect(editFile(ws.root, "src/a.ts", " = 1;", " = 9;")).rejects.toThrow(
      /occurs 2 times; include more surrounding lines/u,
    );
  });

  it("refuses an empty search text", async () => {
    await expect(editFile(ws.root, "src/a.ts", "", "x")).rejects.toMatchObject({
      code: "empty-match",
    });
  });

  it("refuses files that are not UTF-8 text", async () => {
    await expect(editFile(ws.root, "bin.dat", "\u0000", "x")).rejects.toMatchObject({
      code: "not-text",
    });
  });

  it("refuses protected paths", async () => {
    await expect(
      editFile(ws.root, ".cfa/state.json", "{}", '{"forged":1}', { protect: [".cfa/"] }),
    ).rejects.toMatchObject({ name: "BoundaryError", reason: "protected" });
    expect(readFileSync(ws.at(".cfa/state.json"), "utf8")).toBe("{}");
  });

  it("refuses an escape", async () => {
    await expect(editFile(ws.root, "../outside/x", "a", "b")).rejects.toMatchObject({
      name: "BoundaryError",
      reason: "outside",
    });
  });
});
