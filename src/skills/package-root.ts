// Prompts ship as files beside the code (prompts/); find them from src/ (tests, tsx) and
// from dist/ (the installed command) alike.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | null = null;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name;
      if (name === "cfa-bot") return (cached = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cfa/skills: cannot find the cfa-bot package root");
    dir = parent;
  }
}

export const promptPath = (...parts: string[]): string => join(packageRoot(), "prompts", ...parts);
