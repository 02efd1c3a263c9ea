// A Terminate produced by [cascade] drops the workspace without merging
// (docs/protocol.md#withdrawal). After a crash the worktree carries the instance's on-disk state,
// re-attached (docs/protocol.md#persistence).

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createGitWorkspaces,
  WorkspaceBoundaryError,
  WorkspaceError,
} from "../../../../src/adapters/git/index.js";
import type { Workspaces } from "../../../../src/ports/workspaces.js";
import { makeGitFixture, type GitFixture } from "../../../support/git/git-fixture.js";

let fx: GitFixture;
let workspaces: Workspaces;
beforeEach(() => {
  fx = makeGitFixture();
  workspaces = createGitWorkspaces({ repoDir: fx.repo, area: fx.area });
});
afterEach(() => fx.cleanup());

describe("drop", () => {
  it("removes worktree and branch without merging anything", async () => {
    const child = await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    fx.write(child.root, "work.txt", "committed\n");
    fx.commitAll(child.root, "work");
    fx.write(child.root, "scratch.txt", "uncommitted\n");
    const head = fx.git(fx.repo, "rev-parse", "HEAD");

    await workspaces.drop(child);

    expect(fx.git(fx.repo, "worktree", "list", "--porcelain")).not.toContain("t1");
    expect(fx.worktrees()).toEqual([fx.repo]);
    expect(fx.git(fx.repo, "branch", "--list", "cfa/12-t1")).toBe("");
    expect(existsSync(child.root)).toBe(false);
    expect(fx.git(fx.repo, "rev-parse", "HEAD")).toBe(head);
    expect(existsSync(path.join(fx.repo, "work.txt"))).toBe(false);
  });

  it("is idempotent", async () => {
    const child = await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    await workspaces.drop(child);
    await expect(workspaces.drop(child)).resolves.toBeUndefined();
    expect(fx.branches()).toEqual(["main"]);
  });

  it("refuses to drop anything outside the area", async () => {
    await expect(workspaces.drop({ root: fx.repo, branch: "main" })).rejects.toBeInstanceOf(
      WorkspaceBoundaryError,
    );
    expect(existsSync(path.join(fx.repo, "README.md"))).toBe(true);
    expect(fx.branches()).toEqual(["main"]);
  });
});

describe("open after a crash", () => {
  it("re-attaches the existing worktree with its on-disk state", async () => {
    const created = await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    fx.write(created.root, "half-done.txt", "in progress\n");

    // A new process: a fresh adapter over the same repository and area.
    const restarted = createGitWorkspaces({ repoDir: fx.repo, area: fx.area });
    const opened = await restarted.open("t1", "cfa/12-t1");

    expect(opened).toEqual(created);
    expect(readFileSync(path.join(opened.root, "half-done.txt"), "utf8")).toBe("in progress\n");
    expect(fx.worktrees()).toEqual([fx.repo, created.root]);
  });

  it("checks the worktree out again from its branch when the directory is gone", async () => {
    const created = await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    fx.write(created.root, "done.txt", "committed before the crash\n");
    fx.commitAll(created.root, "work");
    rmSync(created.root, { recursive: true, force: true });

    const opened = await createGitWorkspaces({ repoDir: fx.repo, area: fx.area }).open(
      "t1",
      "cfa/12-t1",
    );
    expect(readFileSync(path.join(opened.root, "done.txt"), "utf8")).toBe(
      "committed before the crash\n",
    );
  });

  it("refuses a worktree on another branch, and keeps it", async () => {
    const created = await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    fx.git(fx.repo, "branch", "cfa/12-t2");
    await expect(workspaces.open("t1", "cfa/12-t2")).rejects.toThrow(
      /refs\/heads\/cfa\/12-t1 checked out, not cfa\/12-t2/u,
    );
    expect(existsSync(created.root)).toBe(true);
    expect(fx.branches()).toContain("cfa/12-t1");
  });

  it("refuses a worktree whose admin dir names another repository's common dir", async () => {
    const created = await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    const other = makeGitFixture();
    try {
      // HEAD still names the branch, so the admin dir's files are read, not git asked.
      writeFileSync(path.join(created.gitDir!, "commondir"), `${other.repo}/.git\n`);
      await expect(workspaces.open("t1", "cfa/12-t1")).rejects.toThrow(
        /it is not a worktree of the repository/u,
      );
    } finally {
      other.cleanup();
    }
  });

  it("re-attaches a worktree on its branch from its admin dir's files, with no git process", async () => {
    await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    const started: string[][] = [];
    const count = (message: unknown) => started.push([...(message as { args: string[] }).args]);
    subscribe("cfa-bot:git", count);
    try {
      await workspaces.open("t1", "cfa/12-t1");
    } finally {
      unsubscribe("cfa-bot:git", count);
    }
    expect(started.filter((args) => args.includes("--symbolic-full-name"))).toEqual([]);
  });

  it("says so when there is neither a worktree nor a branch", async () => {
    await expect(workspaces.open("t9", "cfa/12-t9")).rejects.toBeInstanceOf(WorkspaceError);
  });
});
