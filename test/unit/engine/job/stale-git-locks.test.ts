// A process killed inside a git command leaves git's lock files; the next wake of that job
// removes those of its own branches and worktrees, and nobody else's (stale-git-locks.ts).

import { rm, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeStaleGitLocks } from "../../../../src/engine/job/stale-git-locks.js";
import { git, makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";

const exists = async (p: string) => (await stat(p).catch(() => null)) !== null;

describe("stale git locks of a killed process", () => {
  let temp: TempRepo;
  let root: string;
  let repo: string;
  let work: string;
  beforeEach(() => {
    temp = makeTempRepo({ prefix: "cfa-locks-" });
    ({ root, repo } = temp);
    work = join(root, "work");
    for (const [n, branch] of [
      [1, "cfa/1"],
      [1, "cfa/1-hello"],
      [2, "cfa/2"],
      [12, "cfa/12"],
    ] as const) {
      const dir = join(work, String(n), branch.includes("-") ? "task-hello" : "job");
      git(repo, "worktree", "add", "--quiet", "-b", branch, dir);
    }
  });
  afterEach(() => temp.cleanup());

  it("removes job 1's branch and worktree locks; job 2's and job 12's stay", async () => {
    const common = join(repo, ".git");
    // Each worktree's admin folder, as git names it.
    const admin = (worktree: string) => git(join(work, worktree), "rev-parse", "--git-dir").trim();
    const planted = {
      mine: [
        join(common, "refs/heads/cfa/1.lock"),
        join(common, "refs/heads/cfa/1-hello.lock"),
        join(admin("1/job"), "index.lock"),
        join(admin("1/job"), "HEAD.lock"),
        join(admin("1/task-hello"), "index.lock"),
      ],
      others: [
        join(common, "refs/heads/cfa/2.lock"),
        join(common, "refs/heads/cfa/12.lock"),
        join(admin("2/job"), "index.lock"),
        join(admin("12/job"), "index.lock"),
        join(common, "index.lock"),
        join(common, "packed-refs.lock"),
      ],
    };
    for (const p of [...planted.mine, ...planted.others]) await writeFile(p, "");
    // Before: the job is wedged.
    expect(() => git(join(work, "1/job"), "commit", "--allow-empty", "-m", "y")).toThrow(
      /index\.lock': File exists/,
    );

    const removed = await removeStaleGitLocks(repo, work, 1);
    expect(removed.sort()).toEqual(planted.mine.map((p) => relative(common, p)).sort());
    for (const p of planted.mine) expect(await exists(p)).toBe(false);
    for (const p of planted.others) expect(await exists(p)).toBe(true);
    await rm(join(common, "index.lock"));
    await rm(join(common, "packed-refs.lock"));
    git(join(work, "1/job"), "commit", "--quiet", "--allow-empty", "-m", "y");
  });

  it("a repository with nothing stale, or no git folder at all, is left as it is", async () => {
    expect(await removeStaleGitLocks(repo, work, 1)).toEqual([]);
    expect(await removeStaleGitLocks(join(root, "nowhere"), work, 1)).toEqual([]);
  });
});
