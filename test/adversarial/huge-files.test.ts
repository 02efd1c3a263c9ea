// Huge files, an agent wedging its job: a command's 101 MiB file was committed, GitHub refused the
// push (GH001, files over 100 MiB) and every later push of the branch with it. Each shape below is
// left as a command would leave it (sparse files: `truncate` costs no disk) and put through each
// path by which a file reaches a commit: the after-command check (the agent is told), a turn's
// commit, and a task's pending work committed at its close and merged. None may commit a file over
// limits.fileMiB (here the default, 10 MiB); the file stays where the agent left it; the rest of
// the work is committed; and a push to a stand-in for GitHub (support/github-file-limit.ts,
// GitHub's rule as a pre-receive hook) succeeds, then and after. The bound itself lets a file of
// exactly 10 MiB through, and an 11 MiB file copied to a task at dispatch is copied but not
// committed. Positive controls: plain git commits the 101 MiB file, and the stand-in refuses that
// push and the next one.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, statSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIB } from "../../src/git/file-size-limit.js";
import { containWorkspace } from "../../src/engine/tree/contain-workspace.js";
import { useJobWorkspace, type FixtureWorkspace } from "../support/git/use-job-workspace.js";
import { cases } from "../support/adversarial/count.js";
import { refuseLargeFiles } from "../support/adversarial/github-file-limit.js";

/** limits.fileMiB's default (src/config/config-schema.ts). */
const LIMIT = 10 * MIB;

type Ctx = FixtureWorkspace & { remote: string };

const makeCtx = useJobWorkspace({
  limits: { maxFileBytes: LIMIT },
  // A bare clone standing in for GitHub, refusing files over 100 MiB as it does.
  extra: (fx) => {
    const remote = path.join(fx.base, "github.git");
    execFileSync("git", ["clone", "--quiet", "--bare", fx.repo, remote]);
    refuseLargeFiles(remote);
    return { remote };
  },
});

/** A sparse file of `bytes` at `root/file` (folders made). */
function sparse(root: string, file: string, bytes: number): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), "");
  truncateSync(path.join(root, file), bytes);
}

/** Pushes `branch` to the stand-in for GitHub; the push's status and what it printed. */
function push(c: Ctx, branch: string): { status: number | null; output: string } {
  const pushed = spawnSync("git", ["push", "--quiet", c.remote, branch], {
    cwd: c.fx.repo,
    encoding: "utf8",
  });
  return { status: pushed.status, output: `${pushed.stdout}${pushed.stderr}` };
}

/** The largest blob `ref`'s history holds. */
function largestBlob(c: Ctx, ref: string): number {
  const objects = execFileSync("git", ["rev-list", "--objects", ref], {
    cwd: c.fx.repo,
    encoding: "utf8",
  });
  const sizes = execFileSync(
    "git",
    ["cat-file", "--batch-check=%(objecttype) %(objectsize) %(rest)"],
    {
      cwd: c.fx.repo,
      input: objects,
      encoding: "utf8",
    },
  );
  return Math.max(
    ...sizes
      .split("\n")
      .filter((line) => line.startsWith("blob "))
      .map((line) => Number(line.split(" ")[1])),
  );
}

interface Shape {
  title: string;
  /** Leaves the files in `root`; `commit` commits what must be tracked first. */
  plant(root: string, commit: () => Promise<void>): Promise<void>;
  /** The files too large, and their sizes. */
  huge: Record<string, number>;
}

const SMALL = "notes/kept.txt";

const SHAPES: Shape[] = [
  {
    title: "a 101 MiB file (over GitHub's 100 MiB)",
    plant: async (root) => sparse(root, "big.bin", 101 * MIB),
    huge: { "big.bin": 101 * MIB },
  },
  {
    title: "an 11 MiB file in a folder (over limits.fileMiB, under GitHub's limit)",
    plant: async (root) => sparse(root, "build/out/bundle.js", 11 * MIB),
    huge: { "build/out/bundle.js": 11 * MIB },
  },
  {
    title: "a tracked file grown to 101 MiB",
    plant: async (root, commit) => {
      writeFileSync(path.join(root, "data.csv"), "a,b\n");
      await commit();
      truncateSync(path.join(root, "data.csv"), 101 * MIB);
    },
    huge: { "data.csv": 101 * MIB },
  },
  {
    title: "a 101 MiB file named with spaces, a leading dash and non-ASCII",
    plant: async (root) => sparse(root, "out dir/-é big.bin", 101 * MIB),
    huge: { "out dir/-é big.bin": 101 * MIB },
  },
  {
    title: "five 101 MiB files beside a 10 MiB one",
    plant: async (root) => {
      for (let i = 0; i < 5; i += 1) sparse(root, `dump/${i}.bin`, 101 * MIB);
      sparse(root, "dump/fits.bin", LIMIT);
    },
    huge: Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`dump/${i}.bin`, 101 * MIB])),
  },
];

const OPERATIONS: {
  title: string;
  /** Returns the folder the files must still be in (null: a task's, gone with its worktree). */
  run(c: Ctx, shape: Shape): Promise<string | null>;
}[] = [
  {
    title: "the after-command check",
    async run(c, shape) {
      await shape.plant(c.job.root, async () => void (await c.repo.commit("tracked")));
      writeFileSync(path.join(c.job.root, "kept.txt"), "kept\n");
      const contained = await containWorkspace(c.repo, {
        protect: [".cfa/"],
        ownRecord: () => false,
      });
      const told = contained.notes.join("\n");
      for (const [file, bytes] of Object.entries(shape.huge)) {
        expect(told).toContain(
          `cfa: ${file} is ${(bytes / MIB).toFixed(1)} MiB, over the 10.0 MiB a committed file may hold (limits.fileMiB`,
        );
      }
      expect(contained.notes).toHaveLength(Object.keys(shape.huge).length);
      await c.repo.commit("turn");
      return c.job.root;
    },
  },
  {
    title: "a turn's commit",
    async run(c, shape) {
      await shape.plant(c.job.root, async () => void (await c.repo.commit("tracked")));
      mkdirSync(path.join(c.job.root, "notes"), { recursive: true });
      writeFileSync(path.join(c.job.root, SMALL), "kept\n");
      await c.repo.commit("turn");
      expect(c.fx.git(c.job.root, "ls-tree", "-r", "--name-only", "HEAD")).toContain(SMALL);
      return c.job.root;
    },
  },
  {
    title: "a task's pending work, committed at its close and merged",
    async run(c, shape) {
      const task = await c.workspaces.create({ name: "t1", branch: "cfa/1-t1", from: "cfa/1" });
      const git = (...args: string[]) => c.fx.git(task.root, ...args);
      await shape.plant(task.root, async () => {
        git("add", "--all");
        git("commit", "--quiet", "-m", "tracked");
      });
      mkdirSync(path.join(task.root, "notes"), { recursive: true });
      writeFileSync(path.join(task.root, SMALL), "kept\n");
      // The files the task leaves go with its worktree; what was merged is what counts.
      const sizes = Object.keys(shape.huge).map(
        (file) => statSync(path.join(task.root, file)).size,
      );
      expect(sizes).toEqual(Object.values(shape.huge));
      const merged = await c.workspaces.close(task, c.job, {
        message: "merge t1",
        onConflict: "abort",
      });
      expect(merged.kind).toBe("merged");
      expect(c.fx.git(c.job.root, "ls-tree", "-r", "--name-only", "HEAD")).toContain(SMALL);
      return null;
    },
  },
];

const CASES = SHAPES.flatMap((shape) => OPERATIONS.map((op) => [shape, op] as const));

describe(cases("huge files a command leaves, through every path to a commit", CASES.length), () => {
  it.each(CASES.map(([shape, op]) => [shape.title, op.title, shape, op] as const))(
    "%s: %s commits none of them and the push succeeds",
    async (_shape, _op, shape, op) => {
      const c = await makeCtx();
      const left = await op.run(c, shape);
      expect(largestBlob(c, "cfa/1")).toBeLessThanOrEqual(LIMIT);
      // Left where the agent put them, untracked or changed.
      for (const [file, bytes] of Object.entries(left === null ? {} : shape.huge)) {
        expect(statSync(path.join(left!, file)).size).toBe(bytes);
      }
      expect(push(c, "cfa/1")).toEqual({ status: 0, output: "" });
      // And the push after it: nothing in the branch's history holds the push back.
      writeFileSync(path.join(c.job.root, "later.txt"), "later\n");
      await c.repo.commit("later");
      expect(push(c, "cfa/1").status).toBe(0);
    },
    60_000,
  );
});

describe(cases("the bound, files copied at dispatch, a swept repository's files", 3), () => {
  it("a file of exactly limits.fileMiB is committed", async () => {
    const c = await makeCtx();
    sparse(c.job.root, "fits.bin", LIMIT);
    const contained = await containWorkspace(c.repo, {
      protect: [".cfa/"],
      ownRecord: () => false,
    });
    expect(contained.notes).toEqual([]);
    await c.repo.commit("turn");
    expect(largestBlob(c, "cfa/1")).toBe(LIMIT);
    expect(push(c, "cfa/1").status).toBe(0);
  });

  it("a 101 MiB file inside a nested repository the after-command sweep removes: the agent is told", async () => {
    const c = await makeCtx();
    // git lists a nested repository as one entry (`vendor/lib/`), not the files in it: the
    // files become the tree's own only once the sweep removed its `.git`.
    execFileSync("git", ["init", "--quiet", path.join(c.job.root, "vendor/lib")]);
    sparse(c.job.root, "vendor/lib/big.bin", 101 * MIB);
    const contained = await containWorkspace(c.repo, {
      protect: [".cfa/"],
      ownRecord: () => false,
    });
    expect(contained.notes.join("\n")).toContain(
      "cfa: vendor/lib/big.bin is 101.0 MiB, over the 10.0 MiB a committed file may hold",
    );
    await c.repo.commit("turn");
    expect(largestBlob(c, "cfa/1")).toBeLessThanOrEqual(LIMIT);
  });

  it("an 11 MiB file copied to a task at dispatch is copied, not committed", async () => {
    const c = await makeCtx();
    sparse(c.job.root, "assets/model.bin", 11 * MIB);
    writeFileSync(path.join(c.job.root, "assets/brief.md"), "# brief\n");
    const task = await c.workspaces.create({
      name: "t2",
      branch: "cfa/1-t2",
      from: "cfa/1",
      copy: { from: c.job, files: ["assets/model.bin", "assets/brief.md"] },
    });
    expect(statSync(path.join(task.root, "assets/model.bin")).size).toBe(11 * MIB);
    const committed = c.fx.git(task.root, "ls-tree", "-r", "--name-only", "HEAD").split("\n");
    expect(committed).toContain("assets/brief.md");
    expect(committed).not.toContain("assets/model.bin");
    expect(largestBlob(c, "cfa/1-t2")).toBeLessThanOrEqual(LIMIT);
  });
});

describe("positive controls: a 101 MiB file under plain git", () => {
  it("git commits it, GitHub's rule refuses the push, and the next push of the branch too", async () => {
    const c = await makeCtx();
    sparse(c.job.root, "big.bin", 101 * MIB);
    c.fx.commitAll(c.job.root, "big");
    expect(largestBlob(c, "cfa/1")).toBe(101 * MIB);
    const first = push(c, "cfa/1");
    expect(first.status).not.toBe(0);
    expect(first.output).toContain("GH001: Large files detected");
    expect(first.output).toContain(
      "File big.bin is 101.00 MB; this exceeds GitHub's file size limit of 100.00 MB",
    );
    c.fx.git(c.job.root, "rm", "--quiet", "big.bin");
    c.fx.commitAll(c.job.root, "remove it again");
    const next = push(c, "cfa/1");
    expect(next.status).not.toBe(0);
    expect(next.output).toContain("GH001: Large files detected");
  });
});
