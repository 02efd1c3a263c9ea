// One git status before a commit (one process, to keep a turn cheap) sees what `git add` would
// stage, no more: a setup's dependency folders are neither listed file by file nor a reason to
// add. Real git in a temp dir.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitClient } from "../../../src/git/git-client.js";
import { filesGitWouldAdd } from "../../../src/git/files-git-would-add.js";
import { filesToAdd, treeStatus } from "../../../src/git/tree-status.js";

let repo: string;
const write = (file: string, text = "x\n") => {
  mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  writeFileSync(path.join(repo, file), text);
};

beforeEach(() => {
  repo = mkdtempSync(path.join(tmpdir(), "cfa-tree-status-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });
  git("init", "--quiet");
  write(".gitignore", "build/\n");
  write(".cfa/jobs/1/state.json", "{}\n");
  git("add", ".");
  git("commit", "--quiet", "-m", "0");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe("treeStatus", () => {
  it("a setup's node_modules and .venv, at any depth, change nothing outside the records", async () => {
    write("node_modules/left-pad/index.js");
    write("pkg/node_modules/x/y.js");
    write(".venv/bin/python");
    const look = await treeStatus(gitClient(repo), ".cfa");
    expect(look).toMatchObject({ changedOutside: false, stagedInside: false });
  });

  it("a file of the work beside them does (positive control), and ignored folders are named", async () => {
    write("node_modules/left-pad/index.js");
    write("src/a.js");
    write("build/out.js");
    const look = await treeStatus(gitClient(repo), ".cfa");
    expect(look?.changedOutside).toBe(true);
    expect([...(look?.ignoredFolders ?? [])]).toEqual(["build/"]);
  });

  it("names the files `ls-files --others --modified` names (the after-command size check reads them)", async () => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });
    write("tracked.txt");
    write("gone.txt");
    write("staged.txt");
    git("add", ".");
    git("commit", "--quiet", "-m", "1");
    write("tracked.txt", "changed\n");
    rmSync(path.join(repo, "gone.txt"));
    write("staged.txt", "staged\n");
    git("add", "staged.txt");
    write("new dir/ä b.txt");
    write("build/ignored.js");
    write(".cfa/jobs/1/new.json", "{}\n");
    write("node_modules/x/index.js");
    const client = gitClient(repo);
    const look = await treeStatus(client, ".cfa", { optionalLocks: false });
    const listed = await filesGitWouldAdd(client, [".", ":(exclude,literal).cfa"]);
    // Dependency folders are left out of the look as out of every commit (stage-tree.ts).
    const expected = listed!.filter((file) => !file.startsWith("node_modules/")).sort();
    expect(expected).toEqual(["gone.txt", "new dir/ä b.txt", "tracked.txt"]);
    expect(filesToAdd(look!, ".cfa").sort()).toEqual(expected);
  });
});
