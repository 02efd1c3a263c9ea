// A workspace with every kind of trap the boundary must refuse, next to a folder outside it.

import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TrapWorkspace {
  base: string;
  root: string;
  outside: string;
  cleanup(): void;
}

export function makeTrapWorkspace(): TrapWorkspace {
  const base = mkdtempSync(path.join(os.tmpdir(), "cfa-boundary-"));
  const root = path.join(base, "ws");
  const outside = path.join(base, "outside");
  const at = (relative: string): string => path.join(root, relative);

  mkdirSync(outside);
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

  symlinkSync(outside, at("out-dir"));
  symlinkSync("../outside", at("out-rel"));
  symlinkSync("/", at("to-root"));
  symlinkSync("/nonexistent-cfa-dir/file", at("dangling-out"));
  symlinkSync("../outside/new-file", at("dangling-out-rel"));
  symlinkSync("chain2", at("chain1"));
  symlinkSync("chain3", at("chain2"));
  symlinkSync(outside, at("chain3"));
  symlinkSync("loop-b", at("loop-a"));
  symlinkSync("loop-a", at("loop-b"));
  symlinkSync("/dev/null", at("dev-null"));
  symlinkSync("/proc/self", at("proc-link"));
  symlinkSync(".git", at("git-link"));
  symlinkSync("..", at("self-parent"));
  symlinkSync("sub", at("in-link"));
  symlinkSync(at("sub"), at("in-abs"));
  symlinkSync("sub/new-target.txt", at("dangling-in"));
  linkSync(path.join(outside, "secret"), at("hard"));

  return { base, root, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
