// A workspace with every kind of trap the boundary must refuse, next to a folder outside it
// and a sibling workspace (instances cannot see each other's workspaces:
// docs/protocol.md#workspaces). Besides the hand-made traps, one link per (route, target) of
// ESCAPE_ROUTES × escapeTargets() is planted, so every generated escape has its link in place.

import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TrapWorkspace {
  base: string;
  root: string;
  outside: string;
  /** Another workspace beside this one. */
  sibling: string;
  cleanup(): void;
}

/** A place outside the workspace; `system` ones are refused as such (/proc, /dev, /sys). */
export interface EscapeTarget {
  id: string;
  path: string;
  system: boolean;
  /** A file this test owns (safe to try writing); others are only ever read. */
  ours: boolean;
}

export function escapeTargets(ws: Pick<TrapWorkspace, "base" | "outside" | "sibling">) {
  return [
    { id: "outside-file", path: `${ws.outside}/secret`, system: false, ours: true },
    { id: "outside-new", path: `${ws.outside}/planted`, system: false, ours: true },
    { id: "sibling-file", path: `${ws.sibling}/notes.md`, system: false, ours: true },
    { id: "parent-dir", path: ws.base, system: false, ours: false },
    { id: "etc-passwd", path: "/etc/passwd", system: false, ours: false },
    { id: "etc-dir", path: "/etc", system: false, ours: false },
    { id: "tmp", path: "/tmp", system: false, ours: false },
    { id: "proc-environ", path: "/proc/self/environ", system: true, ours: false },
    { id: "proc-root", path: "/proc/1/root/etc/hostname", system: true, ours: false },
    { id: "dev-stdin", path: "/dev/stdin", system: true, ours: false },
    { id: "sys-kernel", path: "/sys/kernel", system: true, ours: false },
  ] satisfies EscapeTarget[];
}

/** How a path can lead from the workspace to a target. */
export const ESCAPE_ROUTES = [
  "absolute",
  "dotdot",
  "dotdot-from-sub",
  "abs-link",
  "rel-link",
  "parent-link",
  "link-chain",
  "nested-link",
  "link-in-then-out",
] as const;
export type EscapeRoute = (typeof ESCAPE_ROUTES)[number];

/** The path an agent would ask for to reach `target` by `route` (links are in the fixture). */
export function escapePath(ws: TrapWorkspace, route: EscapeRoute, target: EscapeTarget): string {
  const up = path.relative(ws.root, target.path);
  switch (route) {
    case "absolute":
      return target.path;
    case "dotdot":
      return up;
    case "dotdot-from-sub":
      return `sub/../${up}`;
    case "abs-link":
    case "rel-link":
    case "link-chain":
    case "link-in-then-out":
      return `${route}-${target.id}`;
    case "parent-link":
      return `parent-link-${target.id}/${path.basename(target.path)}`;
    case "nested-link":
      return `sub/deep/nested-link-${target.id}`;
    default: {
      const never: never = route;
      throw new Error(String(never));
    }
  }
}

function plantRoutes(ws: TrapWorkspace): void {
  const at = (relative: string): string => path.join(ws.root, relative);
  mkdirSync(at("sub/deep"), { recursive: true });
  mkdirSync(at("inner"), { recursive: true });
  for (const target of escapeTargets(ws)) {
    symlinkSync(target.path, at(`abs-link-${target.id}`));
    symlinkSync(path.relative(ws.root, target.path), at(`rel-link-${target.id}`));
    symlinkSync(path.dirname(target.path), at(`parent-link-${target.id}`));
    symlinkSync(`link-chain-${target.id}-2`, at(`link-chain-${target.id}`));
    symlinkSync(`abs-link-${target.id}`, at(`link-chain-${target.id}-2`));
    symlinkSync(
      path.relative(at("sub/deep"), target.path),
      at(`sub/deep/nested-link-${target.id}`),
    );
    // In through a folder of the workspace, then out by `..` below it.
    symlinkSync(
      `inner/../${path.relative(ws.root, target.path)}`,
      at(`link-in-then-out-${target.id}`),
    );
  }
}

export function makeTrapWorkspace(): TrapWorkspace {
  const base = mkdtempSync(path.join(os.tmpdir(), "cfa-boundary-"));
  const root = path.join(base, "ws");
  const outside = path.join(base, "outside");
  const sibling = path.join(base, "ws2");
  const at = (relative: string): string => path.join(root, relative);

  mkdirSync(outside);
  mkdirSync(sibling);
  writeFileSync(path.join(sibling, "notes.md"), "another instance's notes\n");
  writeFileSync(path.join(outside, "secret"), "outside secret\n");
  mkdirSync(at("sub"), { recursive: true });
  writeFileSync(at("sub/file.txt"), "inside\n");
  mkdirSync(at("docs"));
  mkdirSync(at(".git/hooks"), { recursive: true });
  writeFileSync(at(".git/config"), "[core]\n");
  writeFileSync(at(".git/hooks/pre-commit"), "#!/bin/sh\n");
  writeFileSync(at("sub/.git"), "gitdir: /elsewhere\n");
  mkdirSync(at(".cfa"));
  writeFileSync(at(".cfa/state.json"), "{}\n");
  writeFileSync(at(".gitignore"), "node_modules\n");

  // The root's links, as `ls -l` shows them: name -> target.
  const links: Record<string, string> = {
    "out-dir": outside,
    "out-rel": "../outside",
    "to-root": "/",
    "dangling-out": "/nonexistent-cfa-dir/file",
    "dangling-out-rel": "../outside/new-file",
    chain1: "chain2",
    chain2: "chain3",
    chain3: outside,
    "loop-a": "loop-b",
    "loop-b": "loop-a",
    "dev-null": "/dev/null",
    "proc-link": "/proc/self",
    "git-link": ".git",
    "self-parent": "..",
    "in-link": "sub",
    "in-abs": at("sub"),
    "dangling-in": "sub/new-target.txt",
  };
  for (const [name, target] of Object.entries(links)) symlinkSync(target, at(name));
  linkSync(path.join(outside, "secret"), at("hard"));

  const ws = {
    base,
    root,
    outside,
    sibling,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
  plantRoutes(ws);
  return ws;
}
