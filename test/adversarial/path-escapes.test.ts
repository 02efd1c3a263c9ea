// Adversarial class "path escapes" (issue 8 "Tests"; seed 000 §10 [sandbox integrity]: "a
// pre-tool-use boundary check refuses any tool effect that would escape the workspace's
// filesystem region"). Every path below leads outside the workspace — by absolute path, by
// `..`, through links (absolute, relative, chained, nested, in-then-out), into .git, /proc,
// /dev, /sys, through hard links, onto protected records — and each is refused by the check
// with a named reason, then tried again through every file operation the agents' tools and
// the engine itself use (both go through the one boundary, src/agents/boundary): each must
// be refused and nothing outside may change.

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

const handMade: Escape[] = [
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
  it("tries at least the 154 escapes of issue 8", () => {
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
