// Closing a child merges its branch into the parent's tree with a merge commit; conflicts go to
// the parent (docs/protocol.md#workspaces).

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createGitWorkspaces,
  FALLBACK_EMAIL,
  FALLBACK_NAME,
  WorkspaceBoundaryError,
} from "../../../../src/adapters/git/index.js";
import type { Workspace, Workspaces } from "../../../../src/ports/workspaces.js";
import { makeGitFixture, type GitFixture } from "../../../support/git/git-fixture.js";

let fx: GitFixture;
let main: Workspace;
let workspaces: Workspaces;
beforeEach(() => {
  fx = makeGitFixture();
  main = { root: fx.repo, branch: "main" };
  workspaces = createGitWorkspaces({ repoDir: fx.repo, area: fx.area });
});
afterEach(() => fx.cleanup());

/** Job 12's task `name`, its branch cfa/12-<name> made from main or from its parent task's. */
const task = (name: string, parent?: string): Promise<Workspace> =>
  workspaces.create({
    name,
    branch: `cfa/12-${name}`,
    from: parent === undefined ? "main" : `cfa/12-${parent}`,
  });

const parents = (dir: string): string[] =>
  fx.git(dir, "rev-list", "--parents", "--max-count=1", "HEAD").split(" ").slice(1);

describe("close", () => {
  it("merges with a two-parent commit, keeps uncommitted work, removes worktree and branch", async () => {
    const child = await task("t1");
    fx.write(child.root, "src/feature.ts", "export const x = 1;\n");
    const childCommit = fx.commitAll(child.root, "feature");
    fx.write(child.root, "src/late.ts", "// written but never committed\n");
    const mainBefore = fx.git(fx.repo, "rev-parse", "HEAD");

    const result = await workspaces.close(child, main, {
      message: "cfa: close task t1",
      onConflict: "abort",
    });

    expect(result.kind).toBe("merged");
    const head = fx.git(fx.repo, "rev-parse", "HEAD");
    expect(result).toEqual({ kind: "merged", commit: head });
    const [first, second] = parents(fx.repo);
    expect(first).toBe(mainBefore);
    expect(fx.git(fx.repo, "log", "--format=%s", "-1")).toBe("cfa: close task t1");
    expect(fx.git(fx.repo, "log", "--format=%s", "-1", second ?? "")).toBe(
      "cfa: uncommitted work of cfa/12-t1",
    );
    expect(fx.git(fx.repo, "merge-base", "--is-ancestor", childCommit, head)).toBe("");
    expect(readFileSync(path.join(fx.repo, "src/late.ts"), "utf8")).toContain("never committed");
    expect(fx.branches()).toEqual(["main"]);
    expect(fx.worktrees()).toEqual([fx.repo]);
    expect(existsSync(child.root)).toBe(false);
  });

  it("merges a grandchild into its parent's workspace", async () => {
    const parent = await task("t1");
    const child = await task("t1-a", "t1");
    fx.write(child.root, "a.txt", "a\n");
    const result = await workspaces.close(child, parent, {
      message: "merge a",
      onConflict: "leave",
    });
    expect(result.kind).toBe("merged");
    // The merge commit, read from the worktree's files to spare a git process each turn, is
    // git's own HEAD.
    expect(result).toEqual({ kind: "merged", commit: fx.git(parent.root, "rev-parse", "HEAD") });
    expect(parents(parent.root)).toHaveLength(2);
    expect(readFileSync(path.join(parent.root, "a.txt"), "utf8")).toBe("a\n");
    expect(fx.git(fx.repo, "rev-parse", "main")).not.toBe(
      fx.git(fx.repo, "rev-parse", "cfa/12-t1"),
    );
    expect(fx.branches()).toEqual(["cfa/12-t1", "main"]);
  });

  it("refuses a merge into a task's workspace while one is in progress there, read from its git dir", async () => {
    const parent = await task("t1");
    const child = await task("t1-a", "t1");
    fx.write(child.root, "shared.txt", "child's line\n");
    fx.commitAll(child.root, "child edits");
    fx.write(parent.root, "shared.txt", "parent's line\n");
    fx.commitAll(parent.root, "parent edits");
    await expect(
      workspaces.close(child, parent, { message: "m", onConflict: "leave" }),
    ).resolves.toMatchObject({ kind: "conflict", files: ["shared.txt"] });
    const second = await task("t1-b", "t1");
    fx.write(second.root, "b.txt", "b\n");
    await expect(
      workspaces.close(second, parent, { message: "m2", onConflict: "leave" }),
    ).rejects.toThrow(/a merge is already in progress/u);
  });

  it("runs concurrent closes into one parent one after the other", async () => {
    const a = await task("a");
    const b = await task("b");
    fx.write(a.root, "a.txt", "a\n");
    fx.write(b.root, "b.txt", "b\n");
    const results = await Promise.all([
      workspaces.close(a, main, { message: "merge a", onConflict: "abort" }),
      workspaces.close(b, main, { message: "merge b", onConflict: "abort" }),
    ]);
    expect(results.map((result) => result.kind)).toEqual(["merged", "merged"]);
    expect(fx.git(fx.repo, "log", "--format=%s", "--merges")).toBe("merge b\nmerge a");
    expect(fx.branches()).toEqual(["main"]);
  });

  it("reports up-to-date when the child changed nothing, and still releases it", async () => {
    const child = await task("t1");
    const head = fx.git(fx.repo, "rev-parse", "HEAD");
    await expect(
      workspaces.close(child, main, { message: "nothing", onConflict: "abort" }),
    ).resolves.toEqual({ kind: "up-to-date", commit: head });
    expect(fx.git(fx.repo, "rev-parse", "HEAD")).toBe(head);
    expect(fx.branches()).toEqual(["main"]);
    expect(fx.worktrees()).toEqual([fx.repo]);
  });

  describe("with a conflict", () => {
    let child: Workspace;
    beforeEach(async () => {
      child = await task("t1");
      fx.write(child.root, "shared.txt", "child's line\n");
      fx.write(child.root, "clean.txt", "no conflict here\n");
      fx.commitAll(child.root, "child edits");
      fx.write(fx.repo, "shared.txt", "parent's line\n");
      fx.commitAll(fx.repo, "parent edits");
    });

    it("leaves the merge in progress for the parent, listing the files", async () => {
      const result = await workspaces.close(child, main, { message: "m", onConflict: "leave" });
      expect(result).toEqual({ kind: "conflict", files: ["shared.txt"], aborted: false });
      expect(fx.git(fx.repo, "rev-parse", "--verify", "MERGE_HEAD")).toBe(
        fx.git(fx.repo, "rev-parse", "cfa/12-t1"),
      );
      expect(readFileSync(path.join(fx.repo, "shared.txt"), "utf8")).toContain("<<<<<<<");
      // The child stays until the parent has resolved: nothing is lost.
      expect(fx.branches()).toEqual(["cfa/12-t1", "main"]);
      expect(fx.worktrees()).toEqual([fx.repo, child.root]);
    });

    it("aborts the merge when asked, leaving the parent clean", async () => {
      const head = fx.git(fx.repo, "rev-parse", "HEAD");
      const result = await workspaces.close(child, main, { message: "m", onConflict: "abort" });
      expect(result).toEqual({ kind: "conflict", files: ["shared.txt"], aborted: true });
      expect(fx.git(fx.repo, "status", "--porcelain")).toBe("");
      expect(fx.git(fx.repo, "rev-parse", "HEAD")).toBe(head);
      expect(existsSync(path.join(fx.repo, ".git", "MERGE_HEAD"))).toBe(false);
      expect(fx.branches()).toEqual(["cfa/12-t1", "main"]);
    });

    it("closes as up-to-date once the parent has resolved and committed", async () => {
      await workspaces.close(child, main, { message: "m", onConflict: "leave" });
      fx.write(fx.repo, "shared.txt", "both lines\n");
      fx.commitAll(fx.repo, "resolved");
      await expect(
        workspaces.close(child, main, { message: "m", onConflict: "leave" }),
      ).resolves.toMatchObject({ kind: "up-to-date" });
      expect(fx.branches()).toEqual(["main"]);
    });

    it("refuses to start another merge while one is in progress", async () => {
      await workspaces.close(child, main, { message: "m", onConflict: "leave" });
      const second = await task("t2");
      fx.write(second.root, "b.txt", "b\n");
      await expect(
        workspaces.close(second, main, { message: "m2", onConflict: "leave" }),
      ).rejects.toThrow(/a merge is already in progress/u);
    });
  });

  it("refuses a child that is not in the area", async () => {
    await expect(
      workspaces.close({ root: fx.repo, branch: "main" }, main, {
        message: "m",
        onConflict: "abort",
      }),
    ).rejects.toBeInstanceOf(WorkspaceBoundaryError);
  });
});

describe("close without a configured identity", () => {
  let home: string;
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  beforeEach(() => {
    fx.cleanup();
    fx = makeGitFixture({ identity: false });
    main = { root: fx.repo, branch: "main" };
    workspaces = createGitWorkspaces({ repoDir: fx.repo, area: fx.area });
    home = mkdtempSync(path.join(os.tmpdir(), "cfa-home-"));
    process.env.HOME = home;
    process.env.XDG_CONFIG_HOME = home;
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(home, { recursive: true, force: true });
  });

  it("commits as the fixed cfa-bot identity", async () => {
    const child = await task("t1");
    fx.write(child.root, "new.txt", "x\n");
    await workspaces.close(child, main, { message: "merge", onConflict: "abort" });
    expect(fx.git(fx.repo, "log", "--format=%cn <%ce>|%an <%ae>", "-1")).toBe(
      `${FALLBACK_NAME} <${FALLBACK_EMAIL}>|${FALLBACK_NAME} <${FALLBACK_EMAIL}>`,
    );
  });
});
