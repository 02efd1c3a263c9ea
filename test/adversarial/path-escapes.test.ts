// Adversarial class "path escapes" (sandbox integrity, docs/protocol.md#workspaces: every tool
// effect passes a boundary check first, and none may escape the workspace's root). Every path below
// leads outside the workspace — by absolute path, by `..`, through links (absolute, relative,
// chained, nested, in-then-out), into .git, /proc, /dev, /sys, through hard links, onto protected
// records — and each is refused by the check with a named reason, then tried again through every
// file operation the agents' tools and the engine itself use (both go through the one boundary,
// src/agents/boundary): each must be refused and nothing outside may change.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BoundaryError,
  resolveInWorkspace,
  type BoundaryReason,
} from "../../src/agents/boundary/index.js";
import {
  appendFile,
  editFile,
  listFiles,
  readFile,
  searchFiles,
  writeFile,
} from "../../src/agents/fs/index.js";
import { appendText, readText, writeText } from "../../src/engine/tree/files.js";
import { cases } from "../support/adversarial/count.js";
import { snapshot } from "../support/adversarial/outside-snapshot.js";
import {
  ESCAPE_ROUTES,
  escapePath,
  escapeTargets,
  makeTrapWorkspace,
  type TrapWorkspace,
} from "../support/adversarial/trap-workspace.js";

let ws: TrapWorkspace;
let before: Map<string, string>;
let siblingBefore: Map<string, string>;
const passwd = readFileSync("/etc/passwd", "utf8");

beforeAll(() => {
  ws = makeTrapWorkspace();
  before = snapshot(ws.outside);
  siblingBefore = snapshot(ws.sibling);
});
afterAll(() => ws.cleanup());

interface Escape {
  title: string;
  path: (ws: TrapWorkspace) => string;
  /** The reason given, or the reasons allowed where the host decides (/proc/1/root). */
  reason: BoundaryReason | BoundaryReason[];
  forWrite?: boolean;
  protect?: string[];
  /** Also tried through every read and write operation (a path outside in both modes). */
  everyOperation?: boolean;
}

const PROTECT = [".cfa/", "données/"];

/** An escape by a path that does not depend on where the workspace is, read or written. */
const read = (title: string, path: string, reason: BoundaryReason): Escape => ({
  title,
  path: () => path,
  reason,
});
const write = (title: string, path: string, reason: BoundaryReason): Escape => ({
  ...read(title, path, reason),
  forWrite: true,
});
/** A write onto a protected record (`protect`: the protected prefixes). */
const protectedWrite = (title: string, path: string, protect = PROTECT): Escape => ({
  ...write(title, path, "protected"),
  protect,
});

const handMade: Escape[] = [
  // absolute paths
  read("/etc/passwd", "/etc/passwd", "outside"),
  read("/tmp", "/tmp", "outside"),
  read("/", "/", "outside"),
  { title: "the root's parent, absolute", path: (w) => w.base, reason: "outside" },
  { title: "a file outside, absolute", path: (w) => `${w.outside}/secret`, reason: "outside" },
  write("/etc/passwd for write", "/etc/passwd", "outside"),
  {
    title: "absolute, under the root but leaving it",
    path: (w) => `${w.root}/sub/../../outside/secret`,
    reason: "outside",
  },
  // .. chains
  read("..", "..", "outside"),
  read("../outside/secret", "../outside/secret", "outside"),
  read("../../../../etc/passwd", "../../../../etc/passwd", "outside"),
  read("a/../../x", "a/../../x", "outside"),
  write("sub/../../x for write", "sub/../../x", "outside"),
  read("./../x", "./../x", "outside"),
  read("out and back in: ../ws/sub/file.txt", "../ws/sub/file.txt", "outside"),
  read("new/../../x (missing dirs)", "new/../../x", "outside"),
  // symlinked parents pointing out
  read("absolute link to a dir outside", "out-dir/secret", "outside"),
  read("the link itself", "out-dir", "outside"),
  read("relative link to ../outside", "out-rel/secret", "outside"),
  write("new file through a link out", "out-dir/new-file", "outside"),
  read("out through a link and back in", "out-dir/../ws/sub/file.txt", "outside"),
  read("link to .. (the root's parent)", "self-parent/outside/secret", "outside"),
  // link to /
  read("link to / then etc/passwd", "to-root/etc/passwd", "outside"),
  read("link to / itself", "to-root", "outside"),
  // dangling links pointing out
  read("dangling absolute link, read", "dangling-out", "outside"),
  write("dangling absolute link, write", "dangling-out", "outside"),
  write("dangling relative link, write", "dangling-out-rel", "outside"),
  // chains and loops
  read("chain of three links to outside", "chain1/secret", "outside"),
  write("chain, write a new file", "chain1/x", "outside"),
  read("link loop", "loop-a", "symlink-loop"),
  write("link loop below", "loop-a/x", "symlink-loop"),
  // .git in any form
  write(".git/hooks/pre-commit", ".git/hooks/pre-commit", "git-dir"),
  read(".git/config", ".git/config", "git-dir"),
  read(".git itself", ".git", "git-dir"),
  write("sub/.git/x (nested)", "sub/.git/x", "git-dir"),
  read(".GIT/config", ".GIT/config", "git-dir"),
  read(".Git/hooks/pre-commit", ".Git/hooks/pre-commit", "git-dir"),
  read(".git. (NTFS trailing dot)", ".git./config", "git-dir"),
  read(".git  (trailing space)", ".git /config", "git-dir"),
  read("git~1 (8.3 short name)", "GIT~1/config", "git-dir"),
  read("zero-width joiner in .git", ".g\u200cit/config", "git-dir"),
  read("link into .git", "git-link/config", "git-dir"),
  write(".git reached by ..", "sub/../.git/hooks/x", "git-dir"),
  { title: "absolute .git", path: (w) => `${w.root}/.git/config`, reason: "git-dir" },
  // system trees
  read("/proc/self/environ", "/proc/self/environ", "system-path"),
  read("/dev/null via a link", "dev-null", "system-path"),
  write("/dev/null via a link, write", "dev-null", "system-path"),
  read("/proc via a link", "proc-link/environ", "system-path"),
  read("/sys", "/sys/kernel", "system-path"),
  read("/dev/null", "/dev/null", "system-path"),
  // malformed input
  read("a path over 4096 bytes", "a/".repeat(2049), "too-long"),
  read("a component over 255 bytes", "a".repeat(256), "too-long"),
  write("a component over 255 bytes in UTF-8", "é".repeat(128), "too-long"),
  read("NUL in the middle", "sub/file.txt\0.png", "invalid-path"),
  read("NUL alone", "\0", "invalid-path"),
  read("~", "~", "home"),
  write("~/secret", "~/.ssh/id_rsa", "home"),
  read("~user", "~root/.bashrc", "home"),
  write("empty path for write", "", "empty"),
  write(". for write", ".", "empty"),
  write("root via .. for write", "sub/..", "workspace-root"),
  {
    title: "absolute root for write",
    path: (w) => w.root,
    reason: "workspace-root",
    forWrite: true,
  },
  // hard links
  read("hard link to a file outside, read", "hard", "hard-link"),
  write("hard link to a file outside, write", "hard", "hard-link"),
  // protected prefixes
  protectedWrite("protected file write", ".cfa/state.json"),
  protectedWrite("protected new file", ".cfa/outcome.json"),
  protectedWrite("the protected folder itself", ".cfa"),
  protectedWrite("protected, other case", ".CFA/state.json"),
  protectedWrite("protected, reached through an inside link", "in-link/../.cfa/x"),
  protectedWrite("protected NFC prefix, NFD spelling", "donne\u0301es/x"),
  protectedWrite("protected NFD prefix, NFC spelling", "r\u00e9sum\u00e9/x", [
    "re\u0301sume\u0301",
  ]),
];

// Every target reached by every route: the same escape in all its spellings.
const generated: Escape[] = ESCAPE_ROUTES.flatMap((route) =>
  escapeTargets({ base: "", outside: "", sibling: "" }).map((target) => ({
    title: `${route} to ${target.id}`,
    path: (w: TrapWorkspace) =>
      escapePath(
        w,
        route,
        escapeTargets(w).find((t) => t.id === target.id)!,
      ),
    reason: expectedReason(route, target),
    everyOperation: true,
  })),
);

const escapes: Escape[] = [...handMade, ...generated];

/**
 * `..` is checked step by step, so a chain of them is refused as "outside" the moment it
 * leaves the root, before it reaches /proc; a link's target is resolved whole and then
 * judged, so a link into /proc is "system-path". /proc/1/root is another process's root:
 * reading that link needs ptrace rights some hosts do not give ("unreadable").
 */
function expectedReason(
  route: (typeof ESCAPE_ROUTES)[number],
  target: { id: string; system: boolean },
): BoundaryReason | BoundaryReason[] {
  if (!target.system || route === "dotdot" || route === "dotdot-from-sub") return "outside";
  if (target.id === "proc-root" && route !== "absolute") return ["system-path", "unreadable"];
  return "system-path";
}

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe(cases("path escapes: the boundary check refuses every one", escapes.length), () => {
  it("tries at least the 154 escapes the suite promises", () => {
    expect(escapes.length).toBeGreaterThanOrEqual(154);
  });

  it.each(escapes)("$title", (escape) => {
    const requested = escape.path(ws);
    const thrown = refusal(() =>
      resolveInWorkspace(ws.root, requested, {
        forWrite: escape.forWrite ?? false,
        protect: escape.protect ?? [],
      }),
    );
    expect(thrown).toBeInstanceOf(BoundaryError);
    const error = thrown as BoundaryError;
    expect([escape.reason].flat()).toContain(error.reason);
    expect(error.requested).toBe(requested);
    expect(error.message).toMatch(/^cfa\/boundary: refused ".*": \S.+/su);
  });
});

// What each operation does with an escape: the agents' file tools and the engine's own
// helpers (files.ts), reads and writes. Writes go only to paths this test owns.
const OPERATIONS = [
  { name: "read_file", write: false, run: (p: string) => readFile(ws.root, p) },
  { name: "list_files", write: false, run: (p: string) => listFiles(ws.root, p) },
  {
    name: "search_files",
    write: false,
    run: (p: string) => searchFiles(ws.root, "x", { path: p }),
  },
  { name: "engine readText", write: false, run: (p: string) => readText(ws.root, p) },
  { name: "write_file", write: true, run: (p: string) => writeFile(ws.root, p, "pwned\n") },
  { name: "edit_file", write: true, run: (p: string) => editFile(ws.root, p, "o", "pwned") },
  { name: "append", write: true, run: (p: string) => appendFile(ws.root, p, "pwned\n") },
  { name: "engine writeText", write: true, run: (p: string) => writeText(ws.root, p, "pwned\n") },
  { name: "engine appendText", write: true, run: (p: string) => appendText(ws.root, p, "pwned\n") },
] as const;

const targetsById = new Map(
  escapeTargets({ base: "", outside: "", sibling: "" }).map((t) => [t.id, t]),
);
const tries = generated.flatMap((escape) => {
  const target = targetsById.get(escape.title.split(" to ")[1]!)!;
  return OPERATIONS.filter((op) => !op.write || target.ours).map((op) => ({
    title: `${op.name}: ${escape.title}`,
    escape,
    op,
  }));
});

describe(cases("path escapes through every file operation", tries.length, "tries"), () => {
  it.each(tries)("$title", async ({ escape, op }) => {
    await expect(op.run(escape.path(ws))).rejects.toBeInstanceOf(BoundaryError);
  });

  it("left everything outside the workspace as it was", () => {
    expect(snapshot(ws.outside)).toEqual(before);
    expect(snapshot(ws.sibling)).toEqual(siblingBefore);
    expect(readFileSync("/etc/passwd", "utf8")).toBe(passwd);
  });
});
