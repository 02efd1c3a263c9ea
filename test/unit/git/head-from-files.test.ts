// A worktree's HEAD read from files (src/git/head-from-files.ts) is what `git rev-parse HEAD`
// says whenever it answers, and null (git is asked) where it cannot be sure.

import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import {
  headBranchFromFiles,
  headFromFiles,
  looseBranchIdAt,
} from "../../../src/git/head-from-files.js";
import { JobRepo } from "../../../src/engine/tree/job-repo.js";
import { makeTempRepo, type TempRepo } from "../../support/git/temp-repo.js";

let temp: TempRepo | undefined;
afterEach(() => temp?.cleanup());

describe("headFromFiles: HEAD without a git process", () => {
  it("agrees with git on a branch, in a linked worktree and detached (3 places)", async () => {
    temp = makeTempRepo({ prefix: "cfa-head-files-" });
    const gitDir = join(temp.repo, ".git");
    expect(await headFromFiles(gitDir)).toBe(temp.git("rev-parse", "HEAD"));

    const tree = join(temp.root, "wt");
    temp.git("worktree", "add", "--quiet", "-b", "side", tree);
    temp.write("f.txt", "x\n");
    temp.commitAll("on main");
    const admin = temp.git("rev-parse", "--path-format=absolute", "--git-path", "worktrees/wt");
    expect(await headFromFiles(admin)).toBe(temp.git("rev-parse", "side"));

    temp.git("checkout", "--quiet", "--detach", "HEAD~1");
    expect(await headFromFiles(gitDir)).toBe(temp.git("rev-parse", "HEAD"));
  });

  it("is null for a packed ref and an unborn branch, where git is asked (2 cases)", async () => {
    temp = makeTempRepo({ prefix: "cfa-head-files-" });
    const gitDir = join(temp.repo, ".git");
    // Positive control: the loose ref answers.
    expect(await headFromFiles(gitDir)).not.toBeNull();
    temp.git("pack-refs", "--all");
    expect(await headFromFiles(gitDir)).toBeNull();
    // JobRepo falls back to git and still names the commit.
    expect(await new JobRepo(temp.repo).head()).toBe(temp.git("rev-parse", "HEAD"));
    temp.git("checkout", "--quiet", "--orphan", "fresh");
    expect(await headFromFiles(gitDir)).toBeNull();
  });
});

describe("looseBranchIdAt: a branch of a checkout without a git process", () => {
  it("agrees with git on 2 branches, and is null for a tag, HEAD and a missing branch (3 cases)", async () => {
    temp = makeTempRepo({ prefix: "cfa-head-files-" });
    temp.git("branch", "side");
    temp.write("f.txt", "x\n");
    temp.commitAll("on main");
    const main = temp.git("symbolic-ref", "--short", "HEAD");
    expect(await looseBranchIdAt(temp.repo, `refs/heads/${main}`)).toBe(
      temp.git("rev-parse", main),
    );
    expect(await looseBranchIdAt(temp.repo, "refs/heads/side")).toBe(temp.git("rev-parse", "side"));
    expect(await looseBranchIdAt(temp.repo, "refs/heads/side")).not.toBe(
      temp.git("rev-parse", main),
    );
    temp.git("tag", "v1");
    expect(await looseBranchIdAt(temp.repo, "refs/tags/v1")).toBeNull();
    expect(await looseBranchIdAt(temp.repo, "HEAD")).toBeNull();
    expect(await looseBranchIdAt(temp.repo, "refs/heads/none")).toBeNull();
  });

  it("is null for a packed ref, a linked worktree's checkout and a ref path that climbs (3 cases)", async () => {
    temp = makeTempRepo({ prefix: "cfa-head-files-" });
    temp.git("branch", "side");
    // Positive control: the loose ref answers before it is packed.
    expect(await looseBranchIdAt(temp.repo, "refs/heads/side")).not.toBeNull();
    const tree = join(temp.root, "wt");
    temp.git("worktree", "add", "--quiet", "-b", "other", tree);
    expect(await looseBranchIdAt(tree, "refs/heads/side")).toBeNull();
    expect(await looseBranchIdAt(temp.repo, "refs/heads/../../HEAD")).toBeNull();
    temp.git("pack-refs", "--all");
    expect(await looseBranchIdAt(temp.repo, "refs/heads/side")).toBeNull();
  });
});

describe("headBranchFromFiles: the checked-out branch without a git process", () => {
  it("agrees with git symbolic-ref --short on 2 branches (one unborn, one with a slash), and is null detached", async () => {
    temp = makeTempRepo({ prefix: "cfa-head-files-" });
    const gitDir = join(temp.repo, ".git");
    expect(await headBranchFromFiles(gitDir)).toBe(temp.git("symbolic-ref", "--short", "HEAD"));
    temp.git("checkout", "--quiet", "-b", "feature/x");
    expect(await headBranchFromFiles(gitDir)).toBe("feature/x");
    temp.git("checkout", "--quiet", "--orphan", "fresh");
    expect(await headBranchFromFiles(gitDir)).toBe(temp.git("symbolic-ref", "--short", "HEAD"));
    temp.git("checkout", "--quiet", "--detach", "feature/x");
    expect(await headBranchFromFiles(gitDir)).toBeNull();
  });
});
