// branchExists with the common dir: a loose ref answers without git, and anything the files
// cannot settle (a packed branch, an absent one) is still git's answer.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { branchExists, deleteBranch } from "../../../../src/adapters/git/remove-worktree.js";
import { gitClient } from "../../../../src/git/git-client.js";
import { refAbsentFromFiles } from "../../../../src/git/head-from-files.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";

let temp: TempRepo | undefined;
afterEach(() => temp?.cleanup());

describe("branchExists with the common dir: no git process when the files answer", () => {
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

describe("a branch nowhere a ref could be", () => {
  it("is absent from the files alone only with no packed-refs and no reftable: 1 absent, then 3 cases where git is asked", async () => {
    temp = makeTempRepo({ prefix: "cfa-branch-absent-" });
    const common = join(temp.repo, ".git");
    rmSync(join(common, "packed-refs"), { force: true });
    expect(await refAbsentFromFiles(common, "refs/heads/none")).toBe(true);
    // A symbolic ref at the loose path is no id, but it is there.
    writeFileSync(join(common, "refs", "heads", "alias"), "ref: refs/heads/main\n");
    expect(await refAbsentFromFiles(common, "refs/heads/alias")).toBe(false);
    expect(await branchExists(gitClient(temp.repo), "alias", common)).toBe(true);
    // Anything packed, or a reftable folder, and the files cannot say.
    temp.git("branch", "packed-one");
    temp.git("pack-refs", "--all");
    expect(await refAbsentFromFiles(common, "refs/heads/none")).toBe(false);
    rmSync(join(common, "packed-refs"));
    mkdirSync(join(common, "reftable"));
    expect(await refAbsentFromFiles(common, "refs/heads/none")).toBe(false);
  });
});
