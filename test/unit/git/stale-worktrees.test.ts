// hasStaleWorktree against real git: it says "stale" exactly when `git worktree prune` then
// removes an entry (the positive controls), and "nothing" where prune leaves every entry.

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hasStaleWorktree } from "../../../src/git/stale-worktrees.js";
import { makeTempRepo, type TempRepo } from "../../support/git/temp-repo.js";

let temp: TempRepo | undefined;
afterEach(() => temp?.cleanup());

/** The linked worktrees git lists (the main one left out). */
function linked(t: TempRepo): number {
  return (
    t
      .git("worktree", "list", "--porcelain")
      .split("\n\n")
      .filter((b) => b.trim()).length - 1
  );
}

describe("hasStaleWorktree (no `git worktree prune` where it would do nothing)", () => {
  it("agrees with git worktree prune over 5 states: none, live, removed by git, missing (stale), missing but locked", async () => {
    temp = makeTempRepo({ prefix: "cfa-stale-worktrees-" });
    const common = join(temp.repo, ".git");
    const tree = join(temp.root, "wt");
    // No linked worktree at all.
    expect(await hasStaleWorktree(common)).toBe(false);
    // A live one.
    temp.git("worktree", "add", "--quiet", "-b", "side", tree);
    expect(await hasStaleWorktree(common)).toBe(false);
    temp.git("worktree", "prune");
    expect(linked(temp)).toBe(1);
    // Removed by git: its entry goes with it.
    temp.git("worktree", "remove", "--force", tree);
    expect(await hasStaleWorktree(common)).toBe(false);
    // Its folder deleted behind git's back: stale, and prune removes it (positive control).
    temp.git("worktree", "add", "--quiet", tree, "side");
    rmSync(tree, { recursive: true, force: true });
    expect(await hasStaleWorktree(common)).toBe(true);
    expect(linked(temp)).toBe(1);
    temp.git("worktree", "prune");
    expect(linked(temp)).toBe(0);
    expect(await hasStaleWorktree(common)).toBe(false);
    // Missing but locked: prune keeps it, and so is it not stale.
    temp.git("worktree", "add", "--quiet", tree, "side");
    temp.git("worktree", "lock", tree);
    rmSync(tree, { recursive: true, force: true });
    expect(await hasStaleWorktree(common)).toBe(false);
    temp.git("worktree", "prune");
    expect(linked(temp)).toBe(1);
  });

  it("counts an entry the files cannot settle as stale (2 cases: empty gitdir, relative gitdir), so the caller prunes", async () => {
    temp = makeTempRepo({ prefix: "cfa-stale-worktrees-" });
    const common = join(temp.repo, ".git");
    temp.git("worktree", "add", "--quiet", "-b", "side", join(temp.root, "wt"));
    const [entry] = temp.git("worktree", "list", "--porcelain").match(/worktree .*wt/) ?? [];
    expect(entry).toBeDefined();
    const gitdirFile = join(common, "worktrees", "wt", "gitdir");
    writeFileSync(gitdirFile, "\n");
    expect(await hasStaleWorktree(common)).toBe(true);
    writeFileSync(gitdirFile, "../../wt/.git\n");
    expect(await hasStaleWorktree(common)).toBe(true);
  });
});
