// Sandbox integrity (docs/protocol.md#workspaces): legitimate paths still resolve, inside the
// workspace; every escape is refused (test/adversarial/path-escapes.test.ts).

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveInWorkspace } from "../../../../src/agents/boundary/index.js";
import {
  makeTrapWorkspace,
  type TrapWorkspace,
} from "../../../support/adversarial/trap-workspace.js";

let ws: TrapWorkspace;
beforeAll(() => {
  ws = makeTrapWorkspace();
});
afterAll(() => ws.cleanup());

// The escapes themselves (and every file operation run over them) are the adversarial
// suite's first class: test/adversarial/path-escapes.test.ts.

describe("resolveInWorkspace says what it refused", () => {
  it("names the path and the reason", () => {
    expect(() => resolveInWorkspace(ws.root, "../x")).toThrow(
      'cfa/boundary: refused "../x": resolves outside the workspace',
    );
  });
});

interface Allowed {
  title: string;
  path: (ws: TrapWorkspace) => string;
  expected: string;
  forWrite?: boolean;
}

const allowed: Allowed[] = [
  { title: "a file", path: () => "sub/file.txt", expected: "sub/file.txt" },
  {
    title: "nested new dirs",
    path: () => "a/b/c/new.txt",
    expected: "a/b/c/new.txt",
    forWrite: true,
  },
  {
    title: ".. that stays inside",
    path: () => "sub/../docs/x.md",
    expected: "docs/x.md",
    forWrite: true,
  },
  { title: "unicode names", path: () => "ünï/文件.txt", expected: "ünï/文件.txt", forWrite: true },
  { title: "relative link inside", path: () => "in-link/file.txt", expected: "sub/file.txt" },
  { title: "absolute link inside", path: () => "in-abs/file.txt", expected: "sub/file.txt" },
  {
    title: "dangling link inside, write",
    path: () => "dangling-in",
    expected: "sub/new-target.txt",
    forWrite: true,
  },
  {
    title: "absolute path inside",
    path: (w) => `${w.root}/sub/file.txt`,
    expected: "sub/file.txt",
  },
  { title: "./ and // are harmless", path: () => "./sub//file.txt", expected: "sub/file.txt" },
  { title: "the root, read", path: () => "", expected: "" },
  { title: ".gitignore is not .git", path: () => ".gitignore", expected: ".gitignore" },
  {
    title: ".github/ is not .git",
    path: () => ".github/x.yml",
    expected: ".github/x.yml",
    forWrite: true,
  },
  { title: "git without a dot", path: () => "git/x", expected: "git/x", forWrite: true },
  {
    title: "a name starting with ~ below the root",
    path: () => "sub/~backup",
    expected: "sub/~backup",
  },
];

describe("resolveInWorkspace keeps legitimate paths working", () => {
  it.each(allowed)("$title", (entry) => {
    const resolved = resolveInWorkspace(ws.root, entry.path(ws), {
      forWrite: entry.forWrite ?? false,
      protect: [".cfa/"],
    });
    expect(resolved).toBe(entry.expected === "" ? ws.root : path.join(ws.root, entry.expected));
  });

  it("reads a protected path", () => {
    expect(resolveInWorkspace(ws.root, ".cfa/state.json", { protect: [".cfa/"] })).toBe(
      path.join(ws.root, ".cfa/state.json"),
    );
  });

  it("accepts a root given through a link and returns real paths", () => {
    expect(resolveInWorkspace(path.join(ws.root, "in-link", ".."), "sub/file.txt")).toBe(
      path.join(ws.root, "sub/file.txt"),
    );
  });
});
