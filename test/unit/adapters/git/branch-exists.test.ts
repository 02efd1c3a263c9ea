// branchExists with the common dir: a loose ref answers without git, and anything the files
// cannot settle (a packed branch, an absent one) is still git's answer.

import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { branchExists, deleteBranch } from "../../../../src/adapters/git/remove-worktree.js";
import { gitClient } from "../../../../src/git/git-client.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";

let temp: TempRepo | undefined;
afterEach(() => temp?.cleanup());

describe("branchExists with the common dir (issue 19 §3)", () => {
  it("agrees with git for a loose, a packed and an absent branch (3 cases), and deleteBranch deletes a packed one", async () => {
    temp = makeTempRepo({ prefix: "cfa-branch-exists-" });
    const repo = gitClient(temp.repo);
    const common = join(temp.repo, ".git");
    temp.git("branch", "side");
    expect(await branchExists(repo, "side", common)).toBe(true);
    expect(await branchExists(repo, "none", common)).toBe(false);
    temp.git("pack-refs", "--all");
    // Packed: no loose file, and git still finds it.
    expect(await branchExists(repo, "side", common)).toBe(true);
    await deleteBranch(repo, "side", common);
    expect(await branchExists(repo, "side", common)).toBe(false);
    expect(temp.git("branch", "--list", "side")).toBe("");
  });
});
