// Every instance works in a git worktree on its own branch (docs/protocol.md#workspaces); a
// workspace whose boundary cannot be verified at creation is a hard error, and nothing of it
// remains.

import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  symlinkSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createGitWorkspaces,
  WorkspaceBoundaryError,
  WorkspaceError,
} from "../../../../src/adapters/git/index.js";
import { dependencyExcludes } from "../../../../src/git/dependency-folders.js";
import type { Workspace } from "../../../../src/ports/workspaces.js";
import { makeGitFixture, type GitFixture } from "../../../support/git/git-fixture.js";

let fx: GitFixture;
let main: Workspace;
beforeEach(() => {
  fx = makeGitFixture();
  main = { root: fx.repo, branch: "main" };
});
afterEach(() => fx.cleanup());

/** The fixture's workspaces, in its area; `afterAdd` runs where an attacker could act, right after `git worktree add`. */
function fixtureWorkspaces(afterAdd?: (root: string) => void) {
  return createGitWorkspaces({
    repoDir: fx.repo,
    area: fx.area,
    ...(afterAdd === undefined ? {} : { seam: { afterAdd } }),
  });
}

describe("create", () => {
  it("adds a worktree on a new branch in the area", async () => {
    const workspaces = fixtureWorkspaces();
    const ws = await workspaces.create({ name: "12-t1", branch: "cfa/12-t1", from: "main" });
    expect(ws).toEqual({
      root: path.join(fx.area, "12-t1"),
      branch: "cfa/12-t1",
      // The git dir the repository registers: the engine runs git with it, never with the
      // one the tree's own `.git` file names (an agent can rewrite that file).
      gitDir: path.join(fx.repo, ".git", "worktrees", "12-t1"),
      // Its private folder (its commands' HOME), beside the worktrees, never in one.
      home: path.join(fx.area, ".homes", "12-t1"),
    });
    expect(statSync(ws.home!).isDirectory()).toBe(true);
    expect(fx.branches()).toEqual(["cfa/12-t1", "main"]);
    expect(fx.worktrees()).toEqual([fx.repo, ws.root]);
    expect(fx.git(ws.root, "symbolic-ref", "HEAD")).toBe("refs/heads/cfa/12-t1");
    expect(readFileSync(path.join(ws.root, "README.md"), "utf8")).toBe("# project\n");
  });

  it("copies the named files from the parent and commits them when they differ", async () => {
    const workspaces = fixtureWorkspaces();
    fx.write(fx.repo, "notes/PLAN.md", "the plan\n"); // uncommitted in the parent
    const ws = await workspaces.create({
      name: "t1",
      branch: "cfa/12-t1",
      from: "main",
      copy: { from: main, files: ["notes/PLAN.md", "shared.txt"] },
    });
    expect(readFileSync(path.join(ws.root, "notes/PLAN.md"), "utf8")).toBe("the plan\n");
    expect(fx.git(ws.root, "log", "--format=%s", "-1")).toBe("cfa: files copied from main");
    // shared.txt is identical to the start commit: only PLAN.md is in the commit.
    expect(fx.git(ws.root, "show", "--name-only", "--format=", "HEAD")).toBe("notes/PLAN.md");
    expect(fx.git(ws.root, "status", "--porcelain")).toBe("");
  });

  it("commits copied files in folders git 2.39's `**/.tox` exclude pathspec mistakes, leaves dependency folders out", async () => {
    const workspaces = fixtureWorkspaces();
    const files = ["assets/brief.md", "src/components/Button.tsx", "node_modules/x/index.js"];
    // The positive control: plain git with the dependency excludes leaves the file out.
    fx.write(fx.repo, files[0]!, `${files[0]!}\n`);
    fx.git(fx.repo, "add", "--all", "--", `:(literal)${files[0]!}`, ...dependencyExcludes());
    expect(fx.git(fx.repo, "diff", "--cached", "--name-only")).toBe("");
    for (const file of files) fx.write(fx.repo, file, `${file}\n`);
    const ws = await workspaces.create({
      name: "t1",
      branch: "cfa/12-t1",
      from: "main",
      copy: { from: main, files },
    });
    expect(fx.git(ws.root, "show", "--name-only", "--format=", "HEAD").split("\n")).toEqual(
      files.slice(0, 2).sort(),
    );
    expect(fx.git(ws.root, "status", "--porcelain")).toBe("?? node_modules/");
  });

  it("makes no commit when the copied files are already identical", async () => {
    const workspaces = fixtureWorkspaces();
    const ws = await workspaces.create({
      name: "t1",
      branch: "cfa/12-t1",
      from: "main",
      copy: { from: main, files: ["shared.txt"] },
    });
    expect(fx.git(ws.root, "rev-parse", "HEAD")).toBe(fx.git(fx.repo, "rev-parse", "main"));
  });

  it("names a missing file to copy, and leaves no worktree or branch", async () => {
    const workspaces = fixtureWorkspaces();
    const creating = workspaces.create({
      name: "t1",
      branch: "cfa/12-t1",
      from: "main",
      copy: { from: main, files: ["missing.md"] },
    });
    await expect(creating).rejects.toBeInstanceOf(WorkspaceError);
    await expect(creating).rejects.toThrow(/cannot copy "missing\.md".*does not exist/u);
    expect(fx.worktrees()).toEqual([fx.repo]);
    expect(fx.branches()).toEqual(["main"]);
  });

  it("refuses to copy from the parent's .git", async () => {
    const workspaces = fixtureWorkspaces();
    await expect(
      workspaces.create({
        name: "t1",
        branch: "cfa/12-t1",
        from: "main",
        copy: { from: main, files: [".git/config"] },
      }),
    ).rejects.toThrow(/cannot copy "\.git\/config".*cfa\/boundary: refused/u);
    expect(fx.branches()).toEqual(["main"]);
  });

  it.each([
    ["../escape", "cfa/12-t1"],
    ["-rf", "cfa/12-t1"],
    [".hidden", "cfa/12-t1"],
    ["a/b", "cfa/12-t1"],
    ["ok", "bad..branch"],
    ["ok", "-b"],
    ["ok", "cfa/12 t1"],
    ["ok", "@{-1}"],
  ])("refuses name %j / branch %j with a clear error", async (name, branch) => {
    const workspaces = fixtureWorkspaces();
    await expect(workspaces.create({ name, branch, from: "main" })).rejects.toThrow(
      /^cfa\/workspaces: create: invalid (workspace|branch) name/u,
    );
    expect(fx.worktrees()).toEqual([fx.repo]);
  });

  it("refuses an existing branch and an unknown start point", async () => {
    fx.git(fx.repo, "branch", "cfa/12-t1");
    const workspaces = fixtureWorkspaces();
    await expect(
      workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" }),
    ).rejects.toThrow(/branch cfa\/12-t1 already exists/u);
    await expect(
      workspaces.create({ name: "t2", branch: "cfa/12-t2", from: "no-such-ref" }),
    ).rejects.toThrow(/cannot resolve start point no-such-ref/u);
    expect(fx.worktrees()).toEqual([fx.repo]);
  });

  it("refuses an area inside the repository's work tree", async () => {
    const workspaces = createGitWorkspaces({
      repoDir: fx.repo,
      area: path.join(fx.repo, ".cfa-work", "12"),
    });
    await expect(
      workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" }),
    ).rejects.toBeInstanceOf(WorkspaceBoundaryError);
    expect(fx.branches()).toEqual(["main"]);
  });
});

describe("create: boundary verification fails", () => {
  it("refuses an area that is a symbolic link out, leaving no worktree or branch", async () => {
    const outside = path.join(fx.base, "outside");
    mkdirSync(outside);
    mkdirSync(path.dirname(fx.area), { recursive: true });
    symlinkSync(outside, fx.area);
    const workspaces = fixtureWorkspaces();
    const creating = workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    await expect(creating).rejects.toBeInstanceOf(WorkspaceBoundaryError);
    await expect(creating).rejects.toThrow(/workspace area is a symbolic link/u);
    expect(fx.worktrees()).toEqual([fx.repo]);
    expect(fx.branches()).toEqual(["main"]);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("refuses an area swapped for a link after first use", async () => {
    const workspaces = fixtureWorkspaces();
    await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    const outside = path.join(fx.base, "outside");
    mkdirSync(outside);
    renameSync(fx.area, `${fx.area}-moved`);
    symlinkSync(outside, fx.area);
    await expect(
      workspaces.create({ name: "t2", branch: "cfa/12-t2", from: "main" }),
    ).rejects.toBeInstanceOf(WorkspaceBoundaryError);
    expect(fx.branches()).toEqual(["cfa/12-t1", "main"]);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("removes the worktree and branch when the root is replaced by a link", async () => {
    const outside = path.join(fx.base, "outside");
    mkdirSync(outside);
    fx.write(outside, "keep.txt", "not ours\n");
    const workspaces = fixtureWorkspaces((root) => {
      renameSync(root, path.join(fx.base, "stolen"));
      symlinkSync(outside, root);
    });
    const creating = workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
    await expect(creating).rejects.toMatchObject({
      name: "WorkspaceBoundaryError",
      path: path.join(fx.area, "t1"),
      reason: "the worktree root is a symbolic link",
    });
    expect(fx.worktrees()).toEqual([fx.repo]);
    expect(fx.branches()).toEqual(["main"]);
    expect(existsSync(path.join(fx.area, "t1"))).toBe(false);
    expect(readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("not ours\n");
  });

  it("never follows a .git file that names another repository: the registration wins", async () => {
    const other = makeGitFixture();
    try {
      const workspaces = fixtureWorkspaces((root) => {
        renameSync(root, path.join(fx.base, "stolen"));
        other.git(other.repo, "worktree", "add", "--quiet", "-b", "foreign", root);
      });
      const ws = await workspaces.create({ name: "t1", branch: "cfa/12-t1", from: "main" });
      // The tree's pointer is this repository's again, and git there is this repository's.
      expect(readFileSync(path.join(ws.root, ".git"), "utf8")).toBe(
        `gitdir: ${path.join(fx.repo, ".git", "worktrees", "t1")}\n`,
      );
      expect(fx.git(ws.root, "symbolic-ref", "HEAD")).toBe("refs/heads/cfa/12-t1");
      // The other repository was never written: its branch still points where it began.
      expect(other.git(other.repo, "rev-parse", "foreign")).toBe(
        other.git(other.repo, "rev-parse", "main"),
      );
    } finally {
      other.cleanup();
    }
  });
});
