// A fresh local git repository for the CLI's end-to-end tests.

import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface LocalRepo {
  root: string;
  repo: string;
  workRoot: string;
  git(...args: string[]): string;
  cleanup(): Promise<void>;
}

export async function createLocalRepo(): Promise<LocalRepo> {
  const root = await mkdtemp(join(tmpdir(), "cfa-cli-test-"));
  const repo = join(root, "repo");
  await mkdir(repo);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  git("init", "--quiet", "--initial-branch=main");
  git("config", "user.name", "Ana");
  git("config", "user.email", "ana@example.com");
  git("config", "commit.gpgsign", "false");
  await writeFile(join(repo, "README.md"), "# greet\n\nA greeting.\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "initial");
  return {
    root,
    repo,
    workRoot: join(root, "work"),
    git,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
