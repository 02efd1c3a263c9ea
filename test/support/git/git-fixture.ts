// Real git in a temp dir: a repository on `main` with one commit, and a workspace area
// beside it (never inside it).

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface GitFixture {
  base: string;
  repo: string;
  area: string;
  git(cwd: string, ...args: string[]): string;
  write(dir: string, relative: string, content: string): void;
  /** Commits everything in `dir` with the test identity. */
  commitAll(dir: string, message: string): string;
  worktrees(): string[];
  branches(): string[];
  cleanup(): void;
}

const TEST_IDENTITY = ["-c", "user.name=Test Person", "-c", "user.email=test@example.com"];

export function makeGitFixture(options: { identity?: boolean } = {}): GitFixture {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "cfa-git-")));
  const repo = path.join(base, "repo");
  const area = path.join(base, "work", "12");
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  const write = (dir: string, relative: string, content: string): void => {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), content);
  };
  const commitAll = (dir: string, message: string): string => {
    git(dir, "add", "--all");
    git(dir, ...TEST_IDENTITY, "commit", "--quiet", "--no-verify", "--message", message);
    return git(dir, "rev-parse", "HEAD");
  };

  mkdirSync(repo);
  git(repo, "init", "--quiet", "--initial-branch=main");
  if (options.identity ?? true) {
    git(repo, "config", "user.name", "Test Person");
    git(repo, "config", "user.email", "test@example.com");
  }
  write(repo, "README.md", "# project\n");
  write(repo, "shared.txt", "line one\n");
  commitAll(repo, "initial");

  return {
    base,
    repo,
    area,
    git,
    write,
    commitAll,
    worktrees: () =>
      git(repo, "worktree", "list", "--porcelain")
        .split("\n")
        .filter((line) => line.startsWith("worktree "))
        .map((line) => line.slice("worktree ".length)),
    branches: () =>
      git(repo, "branch", "--list", "--format=%(refname:short)")
        .split("\n")
        .filter((line) => line !== ""),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
