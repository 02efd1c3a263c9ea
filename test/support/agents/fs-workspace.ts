// A small workspace and a folder outside it, fresh for each test.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface Sandbox {
  root: string;
  outside: string;
  at(relative: string): string;
  cleanup(): void;
}

export function makeWorkspace(files: Record<string, string | Buffer> = {}): Sandbox {
  const base = mkdtempSync(path.join(os.tmpdir(), "cfa-fs-"));
  const root = path.join(base, "ws");
  const outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  const at = (relative: string): string => path.join(root, relative);
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(at(relative)), { recursive: true });
    writeFileSync(at(relative), content);
  }
  return { root, outside, at, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Both ways the file operations anchor their lookups. */
export const MODES = [
  { mode: "proc", pathOnly: false },
  { mode: "path", pathOnly: true },
] as const;
