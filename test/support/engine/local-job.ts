// A local job on a real temporary git repository, driven by a scripted model: the harness
// of the engine's end-to-end tests.

import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "../../../src/adapters/scripted/index.js";
import { wireLocal } from "../../../src/cli/wiring.js";
import type { EngineDeps, ProgressLine } from "../../../src/engine/engine-deps.js";
import { steppingClock } from "../../../src/ports/clock.js";
import type { LocalForge } from "../../../src/adapters/local/local-forge.js";
import type { Model } from "../../../src/ports/model.js";

export interface LocalJob {
  root: string;
  repoDir: string;
  forge: LocalForge;
  deps: EngineDeps;
  lines: ProgressLine[];
  cleanup(): Promise<void>;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

export async function createLocalJob(options: {
  recording?: unknown;
  model?: Model;
  config?: string;
  files?: Record<string, string>;
}): Promise<LocalJob> {
  const root = await mkdtemp(join(tmpdir(), "cfa-e2e-"));
  const repoDir = join(root, "repo");
  await mkdir(repoDir);
  git(repoDir, "init", "--quiet", "--initial-branch=main");
  git(repoDir, "config", "user.name", "Ana");
  git(repoDir, "config", "user.email", "ana@example.com");
  await writeFile(join(repoDir, "README.md"), "# demo\n");
  for (const [path, text] of Object.entries(options.files ?? {})) {
    await mkdir(join(repoDir, path, ".."), { recursive: true });
    await writeFile(join(repoDir, path), text);
  }
  if (options.config !== undefined) {
    await mkdir(join(repoDir, ".github"), { recursive: true });
    await writeFile(join(repoDir, ".github", "cfa.yml"), options.config);
  }
  git(repoDir, "add", "-A");
  git(repoDir, "commit", "--quiet", "-m", "initial");
  const model = options.model ?? createScriptedModel(options.recording, { source: "test" });
  const lines: ProgressLine[] = [];
  const { deps, forge } = await wireLocal({
    repoDir,
    workRoot: join(root, "work"),
    model,
    clock: steppingClock("2026-11-22T10:00:00.000Z"),
    person: "ana",
    progress: (line) => lines.push(line),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      GITHUB_TOKEN: "ghs_secret",
      ANTHROPIC_API_KEY: "sk-ant-secret",
    },
  });
  return {
    root,
    repoDir,
    forge,
    deps,
    lines,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
