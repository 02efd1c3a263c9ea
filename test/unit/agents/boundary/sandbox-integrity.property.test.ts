// The invariant "sandbox integrity" (docs/protocol.md#invariants): instances are isolated;
// none reads above its root. Random link layouts — links up and out, to a sibling instance's
// workspace, to `.git`, absolute, dangling, chained, looping, a hard link — and random paths
// through them, against the file boundary check (src/agents/boundary resolveInWorkspace) and
// the file tools built on it (src/agents/fs). The oracle is the kernel: realpath(3) says where
// a path really lands, lstat(2) which steps are links, and the files outside the workspace are
// compared byte for byte afterwards.

import { createHash } from "node:crypto";
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { BoundaryError, resolveInWorkspace } from "../../../../src/agents/boundary/index.js";
import { editFile, FileToolError, readFile, writeFile } from "../../../../src/agents/fs/index.js";

const bases: string[] = [];
afterAll(() => {
  for (const base of bases) rmSync(base, { recursive: true, force: true });
});

/** Where a random link points; `$BASE` is the temp dir holding the workspace and its neighbours. */
const TARGETS = [
  "..",
  "../..",
  "../sibling",
  "../sibling/secret.txt",
  "../outside.txt",
  "../../outside.txt",
  "$BASE/outside.txt",
  "$BASE/sibling",
  "$BASE/ws/src",
  "$BASE",
  ".git",
  ".git/config",
  "../.git",
  "src",
  "a.txt",
  "deep",
  "missing/../../outside.txt",
  "../sibling/new.txt",
  "/proc/self/environ",
  "/etc",
  "l1",
  "l2",
  "up/sibling",
  ".cfa",
  "../.cfa/state.json",
];
const LINK_DIRS = ["", "src", "src/deep"];
const LINK_NAMES = ["l1", "l2", "l3", "up", "x"];
const COMPONENTS = [
  ...LINK_NAMES,
  "src",
  "deep",
  "a.txt",
  "b.txt",
  "..",
  ".",
  "",
  ".git",
  ".GIT",
  "config",
  "sibling",
  "secret.txt",
  "outside.txt",
  "new.txt",
  ".cfa",
  "state.json",
  "hard.txt",
];

interface LinkSpec {
  dir: string;
  name: string;
  target: string;
}
const layoutArb = fc.array(
  fc.record({
    dir: fc.constantFrom(...LINK_DIRS),
    name: fc.constantFrom(...LINK_NAMES),
    target: fc.constantFrom(...TARGETS),
  }),
  { maxLength: 8 },
);

/** A request: components joined by `/`, sometimes absolute (under the root, or outside it). */
const requestArb = fc
  .tuple(
    fc.constantFrom("", "", "", "", "$WS/", "$BASE/", "/"),
    fc.array(fc.constantFrom(...COMPONENTS), { minLength: 1, maxLength: 6 }),
  )
  .map(([prefix, parts]) => prefix + parts.join("/"));

interface Layout {
  base: string;
  ws: string;
  at(request: string): string;
}

/**
 * base/ws is the instance's workspace (with `.git`, `.cfa/` and a hard link to a file
 * outside), base/sibling another instance's, base/outside.txt a file above both.
 */
function makeLayout(links: readonly LinkSpec[]): Layout {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "cfa-sandbox-")));
  bases.push(base);
  const ws = path.join(base, "ws");
  mkdirSync(path.join(ws, "src", "deep"), { recursive: true });
  mkdirSync(path.join(ws, ".git"));
  mkdirSync(path.join(ws, ".cfa"));
  mkdirSync(path.join(base, "sibling"));
  writeFileSync(path.join(ws, "a.txt"), "inside a\n");
  writeFileSync(path.join(ws, "src", "b.txt"), "inside b\n");
  writeFileSync(path.join(ws, ".git", "config"), "SECRET-GIT [core] hooksPath=/tmp/evil\n");
  writeFileSync(path.join(ws, ".cfa", "state.json"), "SECRET-RECORD\n");
  writeFileSync(path.join(base, "sibling", "secret.txt"), "SECRET-SIBLING\n");
  writeFileSync(path.join(base, "outside.txt"), "SECRET-OUTSIDE\n");
  linkSync(path.join(base, "outside.txt"), path.join(ws, "hard.txt"));
  for (const link of links) {
    try {
      symlinkSync(link.target.replace("$BASE", base), path.join(ws, link.dir, link.name));
    } catch {
      // The name is taken (an earlier link, or a link dir that is itself a link): skip it.
    }
  }
  return {
    base,
    ws,
    at: (request) => request.replace("$WS", ws).replace("$BASE", base),
  };
}

const isInside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};
const hasGit = (root: string, p: string) =>
  path
    .relative(root, p)
    .split(path.sep)
    .some((part) => part.toLowerCase() === ".git");

/** Where the kernel lands the path, or null when it cannot resolve it all. */
function kernel(ws: string, request: string): string | null {
  try {
    // libc's realpath, as the kernel walks it: `x/..` through a link `x` → `up/sibling` is
    // `up`. (path.resolve and Node's JS realpath fold `..` first and would say the root.)
    return realpathSync.native(path.isAbsolute(request) ? request : `${ws}${path.sep}${request}`);
  } catch {
    return null;
  }
}

/** Every entry under `dir` (links not followed): type, link target, content hash. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      const stats = lstatSync(full);
      const key = path.relative(dir, full);
      if (stats.isSymbolicLink()) out[key] = `link ${readlinkSync(full)}`;
      else if (stats.isDirectory()) {
        out[key] = "dir";
        walk(full);
      } else {
        out[key] =
          `file ${stats.mode} ${createHash("sha256").update(readFileSync(full)).digest("hex")}`;
      }
    }
  };
  walk(dir);
  return out;
}

/** What lies outside what an agent may change: everything but the workspace's own files. */
function guarded(layout: Layout) {
  const all = snapshot(layout.base);
  return Object.fromEntries(
    Object.entries(all).filter(
      ([key]) =>
        !key.startsWith(`ws${path.sep}`) ||
        key.startsWith(`ws${path.sep}.git`) ||
        key.startsWith(`ws${path.sep}.cfa`),
    ),
  );
}

/**
 * Checks `check` on each of up to 12 requests in a random layout, over `numRuns` layouts; a
 * run's requests are all for reading or all for writing.
 */
function everyRequest(
  numRuns: number,
  check: (layout: Layout, request: string, forWrite: boolean) => void,
): void {
  fc.assert(
    fc.property(
      layoutArb,
      fc.array(requestArb, { minLength: 1, maxLength: 12 }),
      fc.boolean(),
      (links, requests, forWrite) => {
        const layout = makeLayout(links);
        for (const raw of requests) check(layout, layout.at(raw), forWrite);
      },
    ),
    { numRuns },
  );
}

describe("Sandbox integrity", () => {
  it("Sandbox integrity: the boundary check accepts a path only where the kernel lands it inside the root and outside .git", () => {
    everyRequest(150, (layout, request, forWrite) => {
      const root = layout.ws;
      const landed = kernel(root, request);
      let resolved: string | null = null;
      try {
        resolved = resolveInWorkspace(root, request, { forWrite, protect: [".cfa/"] });
      } catch (error) {
        expect(error, request).toBeInstanceOf(BoundaryError);
      }
      if (landed !== null && (!isInside(root, landed) || hasGit(root, landed))) {
        expect(resolved, `${request} lands at ${landed}`).toBeNull();
      }
      if (resolved === null) return;
      expect(isInside(root, resolved), `${request} → ${resolved}`).toBe(true);
      expect(hasGit(root, resolved), `${request} → ${resolved}`).toBe(false);
      if (landed !== null) {
        // Where the path exists, the check resolves it as the kernel does.
        expect(resolved, request).toBe(landed);
      } else {
        // Where it does not, its existing part has no link on it and lies inside.
        let existing = resolved;
        while (!exists(existing)) existing = path.dirname(existing);
        expect(realpathSync(existing), request).toBe(existing);
        expect(isInside(root, existing), request).toBe(true);
      }
      if (forWrite) {
        expect(path.relative(root, resolved).split(path.sep)[0]?.toLowerCase(), request).not.toBe(
          ".cfa",
        );
      }
    });
  });

  it("Sandbox integrity: in no-links mode (the engine's own records) a path that crosses any symbolic link is refused", () => {
    everyRequest(100, (layout, request, forWrite) => {
      let accepted = true;
      try {
        resolveInWorkspace(layout.ws, request, { forWrite, noLinks: true });
      } catch (error) {
        expect(error, request).toBeInstanceOf(BoundaryError);
        accepted = false;
      }
      if (crossesLink(layout.ws, request)) expect(accepted, request).toBe(false);
    });
  });

  it("Sandbox integrity: whatever an agent's file tools are asked, nothing outside its workspace changes and nothing from outside is read", async () => {
    const opArb = fc.record({
      kind: fc.constantFrom("write", "read", "edit"),
      request: requestArb,
    });
    await fc.assert(
      fc.asyncProperty(
        layoutArb,
        fc.array(opArb, { minLength: 1, maxLength: 10 }),
        async (links, ops) => {
          const layout = makeLayout(links);
          const before = guarded(layout);
          for (const op of ops) {
            const request = layout.at(op.request);
            try {
              if (op.kind === "write") {
                await writeFile(layout.ws, request, "agent was here\n", { protect: [".cfa/"] });
              } else if (op.kind === "edit") {
                await editFile(layout.ws, request, "inside", "SECRET-FORGED", {
                  protect: [".cfa/"],
                });
              } else {
                const read = await readFile(layout.ws, request, { protect: [".cfa/"] });
                // "No instance reads above its root" — nor its .git, nor the hard link's twin.
                expect(read.content, request).not.toMatch(/SECRET-(OUTSIDE|SIBLING|GIT)/);
              }
            } catch (error) {
              const known = error instanceof BoundaryError || error instanceof FileToolError;
              if (!known) throw error;
            }
          }
          expect(guarded(layout)).toEqual(before);
        },
      ),
      { numRuns: 100 },
    );
  });
});

/** True when the path, walked as written from the root, steps on a symbolic link that exists. */
function crossesLink(root: string, request: string): boolean {
  let at = path.isAbsolute(request) ? "/" : root;
  for (const part of request.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      at = path.dirname(at);
      continue;
    }
    at = path.join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink()) return true;
    } catch {
      return false;
    }
  }
  return false;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
