// Real git in a temp dir for the Workspaces adapter: a repository on `main` with one commit,
// and a workspace area beside it (never inside it).

import path from "node:path";
import { commitAllIn, git, makeTempRepo, writeAt, type Identity } from "./temp-repo.js";

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

const TEST_PERSON: Identity = { name: "Test Person", email: "test@example.com" };

export function makeGitFixture(options: { identity?: boolean } = {}): GitFixture {
  const temp = makeTempRepo({
    prefix: "cfa-git-",
    identity: (options.identity ?? true) ? TEST_PERSON : null,
    files: { "README.md": "# project\n", "shared.txt": "line one\n" },
  });
  return {
    base: temp.root,
    repo: temp.repo,
    area: path.join(temp.root, "work", "12"),
    git,
    write: writeAt,
    commitAll: (dir, message) => commitAllIn(dir, message, TEST_PERSON),
    worktrees: () =>
      git(temp.repo, "worktree", "list", "--porcelain")
        .split("\n")
        .filter((line) => line.startsWith("worktree "))
        .map((line) => line.slice("worktree ".length)),
    branches: () =>
      git(temp.repo, "branch", "--list", "--format=%(refname:short)")
        .split("\n")
        .filter((line) => line !== ""),
    cleanup: temp.cleanup,
  };
}
