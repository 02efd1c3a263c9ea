// seed 000 §10 [sandbox integrity]: "a pre-tool-use boundary check refuses any tool effect
// that would escape the workspace's filesystem region". Every escape below is refused with
// a named reason and a message that says what and why; legitimate paths still resolve.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BoundaryError,
  resolveInWorkspace,
  type BoundaryReason,
} from "../../../src/agents/boundary/index.js";
import { makeTrapWorkspace, type TrapWorkspace } from "./fixture.js";

let ws: TrapWorkspace;
beforeAll(() => {
  ws = makeTrapWorkspace();
});
afterAll(() => ws.cleanup());

interface Escape {
  title: string;
  path: (ws: TrapWorkspace) => string;
  reason: BoundaryReason;
  forWrite?: boolean;
  protect?: string[];
}

const PROTECT = [".cfa/", "données/"];

const escapes: Escape[] = [
  // absolute paths
  { title: "/etc/passwd", path: () => "/etc/passwd", reason: "outside" },
  { title: "/tmp", path: () => "/tmp", reason: "outside" },
  { title: "/", path: () => "/", reason: "outside" },
  { title: "the root's parent, absolute", path: (w) => w.base, reason: "outside" },
  { title: "a file outside, absolute", path: (w) => `${w.outside}/secret`, reason: "outside" },
  { title: "/etc/passwd for write", path: () => "/etc/passwd", reason: "outside", forWrite: true },
  {
    title: "absolute, under the root but leaving it",
    path: (w) => `${w.root}/sub/../../outside/secret`,
    reason: "outside",
  },
  // .. chains
  { title: "..", path: () => "..", reason: "outside" },
  { title: "../outside/secret", path: () => "../outside/secret", reason: "outside" },
  { title: "../../../../etc/passwd", path: () => "../../../../etc/passwd", reason: "outside" },
  { title: "a/../../x", path: () => "a/../../x", reason: "outside" },
  { title: "sub/../../x for write", path: () => "sub/../../x", reason: "outside", forWrite: true },
  { title: "./../x", path: () => "./../x", reason: "outside" },
  {
    title: "out and back in: ../ws/sub/file.txt",
    path: () => "../ws/sub/file.txt",
    reason: "outside",
  },
  { title: "new/../../x (missing dirs)", path: () => "new/../../x", reason: "outside" },
  // symlinked parents pointing out
  { title: "absolute link to a dir outside", path: () => "out-dir/secret", reason: "outside" },
  { title: "the link itself", path: () => "out-dir", reason: "outside" },
  { title: "relative link to ../outside", path: () => "out-rel/secret", reason: "outside" },
  {
    title: "new file through a link out",
    path: () => "out-dir/new-file",
    reason: "outside",
    forWrite: true,
  },
  {
    title: "out through a link and back in",
    path: () => "out-dir/../ws/sub/file.txt",
    reason: "outside",
  },
  {
    title: "link to .. (the root's parent)",
    path: () => "self-parent/outside/secret",
    reason: "outside",
  },
  // link to /
  { title: "link to / then etc/passwd", path: () => "to-root/etc/passwd", reason: "outside" },
  { title: "link to / itself", path: () => "to-root", reason: "outside" },
  // dangling links pointing out
  { title: "dangling absolute link, read", path: () => "dangling-out", reason: "outside" },
  {
    title: "dangling absolute link, write",
    path: () => "dangling-out",
    reason: "outside",
    forWrite: true,
  },
  {
    title: "dangling relative link, write",
    path: () => "dangling-out-rel",
    reason: "outside",
    forWrite: true,
  },
  // chains and loops
  { title: "chain of three links to outside", path: () => "chain1/secret", reason: "outside" },
  { title: "chain, write a new file", path: () => "chain1/x", reason: "outside", forWrite: true },
  { title: "link loop", path: () => "loop-a", reason: "symlink-loop" },
  { title: "link loop below", path: () => "loop-a/x", reason: "symlink-loop", forWrite: true },
  // .git in any form
  {
    title: ".git/hooks/pre-commit",
    path: () => ".git/hooks/pre-commit",
    reason: "git-dir",
    forWrite: true,
  },
  { title: ".git/config", path: () => ".git/config", reason: "git-dir" },
  { title: ".git itself", path: () => ".git", reason: "git-dir" },
  { title: "sub/.git/x (nested)", path: () => "sub/.git/x", reason: "git-dir", forWrite: true },
  { title: ".GIT/config", path: () => ".GIT/config", reason: "git-dir" },
  { title: ".Git/hooks/pre-commit", path: () => ".Git/hooks/pre-commit", reason: "git-dir" },
  { title: ".git. (NTFS trailing dot)", path: () => ".git./config", reason: "git-dir" },
  { title: ".git  (trailing space)", path: () => ".git /config", reason: "git-dir" },
  { title: "git~1 (8.3 short name)", path: () => "GIT~1/config", reason: "git-dir" },
  { title: "zero-width joiner in .git", path: () => ".g\u200cit/config", reason: "git-dir" },
  { title: "link into .git", path: () => "git-link/config", reason: "git-dir" },
  {
    title: ".git reached by ..",
    path: () => "sub/../.git/hooks/x",
    reason: "git-dir",
    forWrite: true,
  },
  { title: "absolute .git", path: (w) => `${w.root}/.git/config`, reason: "git-dir" },
  // system trees
  { title: "/proc/self/environ", path: () => "/proc/self/environ", reason: "system-path" },
  { title: "/dev/null via a link", path: () => "dev-null", reason: "system-path" },
  {
    title: "/dev/null via a link, write",
    path: () => "dev-null",
    reason: "system-path",
    forWrite: true,
  },
  { title: "/proc via a link", path: () => "proc-link/environ", reason: "system-path" },
  { title: "/sys", path: () => "/sys/kernel", reason: "system-path" },
  { title: "/dev/null", path: () => "/dev/null", reason: "system-path" },
  // malformed input
  { title: "a path over 4096 bytes", path: () => "a/".repeat(2049), reason: "too-long" },
  { title: "a component over 255 bytes", path: () => "a".repeat(256), reason: "too-long" },
  {
    title: "a component over 255 bytes in UTF-8",
    path: () => "é".repeat(128),
    reason: "too-long",
    forWrite: true,
  },
  { title: "NUL in the middle", path: () => "sub/file.txt\0.png", reason: "invalid-path" },
  { title: "NUL alone", path: () => "\0", reason: "invalid-path" },
  { title: "~", path: () => "~", reason: "home" },
  { title: "~/secret", path: () => "~/.ssh/id_rsa", reason: "home", forWrite: true },
  { title: "~user", path: () => "~root/.bashrc", reason: "home" },
  { title: "empty path for write", path: () => "", reason: "empty", forWrite: true },
  { title: ". for write", path: () => ".", reason: "empty", forWrite: true },
  {
    title: "root via .. for write",
    path: () => "sub/..",
    reason: "workspace-root",
    forWrite: true,
  },
  {
    title: "absolute root for write",
    path: (w) => w.root,
    reason: "workspace-root",
    forWrite: true,
  },
  // hard links
  { title: "hard link to a file outside, read", path: () => "hard", reason: "hard-link" },
  {
    title: "hard link to a file outside, write",
    path: () => "hard",
    reason: "hard-link",
    forWrite: true,
  },
  // protected prefixes
  {
    title: "protected file write",
    path: () => ".cfa/state.json",
    reason: "protected",
    forWrite: true,
    protect: PROTECT,
  },
  {
    title: "protected new file",
    path: () => ".cfa/outcome.json",
    reason: "protected",
    forWrite: true,
    protect: PROTECT,
  },
  {
    title: "the protected folder itself",
    path: () => ".cfa",
    reason: "protected",
    forWrite: true,
    protect: PROTECT,
  },
  {
    title: "protected, other case",
    path: () => ".CFA/state.json",
    reason: "protected",
    forWrite: true,
    protect: PROTECT,
  },
  {
    title: "protected, reached through an inside link",
    path: () => "in-link/../.cfa/x",
    reason: "protected",
    forWrite: true,
    protect: PROTECT,
  },
  {
    title: "protected NFC prefix, NFD spelling",
    path: () => "donne\u0301es/x",
    reason: "protected",
    forWrite: true,
    protect: PROTECT,
  },
  {
    title: "protected NFD prefix, NFC spelling",
    path: () => "r\u00e9sum\u00e9/x",
    reason: "protected",
    forWrite: true,
    protect: ["re\u0301sume\u0301"],
  },
];

describe("resolveInWorkspace refuses every escape", () => {
  it("has at least fifty cases", () => {
    expect(escapes.length).toBeGreaterThanOrEqual(50);
  });

  it.each(escapes)("$title", (escape) => {
    const requested = escape.path(ws);
    let thrown: unknown;
    try {
      resolveInWorkspace(ws.root, requested, {
        forWrite: escape.forWrite ?? false,
        protect: escape.protect ?? [],
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BoundaryError);
    const error = thrown as BoundaryError;
    expect(error.name).toBe("BoundaryError");
    expect(error.reason).toBe(escape.reason);
    expect(error.requested).toBe(requested);
    expect(error.message).toMatch(/^cfa\/boundary: refused ".*": \S.+/su);
  });

  it("says what was refused and why", () => {
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
