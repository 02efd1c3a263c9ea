// Deep trees, an agent wedging its job: one `mkdir d; cd d` loop in a command makes a tree ~2,000
// folders deep in a second. Before, the after-command check and every later wake threw on it: paths
// past PATH_MAX make `git add` fail ("fatal: Invalid path", a task could never be closed),
// `git clean` exit 1 (the reset each wake starts with), a checkout into a longer root fail, and a
// walk holding a folder per level exhaust descriptors. Each shape below is planted as a command
// would leave it and put through every operation the engine runs over a tree: the after-command
// check, a turn's commit, a task's worktree made from the committed branch, the reset after a
// crash, and the list and search tools. None may throw; afterwards the tree holds nothing past the
// bounds (64 folders, 1,024 bytes), the commit neither, nothing outside changed, and the agent was
// told. Positive controls: the same trees under plain git.

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  MAX_TREE_DEPTH,
  MAX_TREE_PATH_BYTES,
  treeLimitExceeded,
} from "../../src/agents/boundary/tree-limits.js";
import { listFiles, searchFiles } from "../../src/agents/fs/index.js";
import { writeFileTool } from "../../src/agents/tools/write-file-tool.js";
import type { ToolContext } from "../../src/agents/tools/tool.js";
import { containWorkspace } from "../../src/engine/tree/contain-workspace.js";
import { useJobWorkspace, type FixtureWorkspace } from "../support/git/use-job-workspace.js";
import { cases } from "../support/adversarial/count.js";
import {
  outOfBounds,
  plantChain,
  plantLink,
  removeDeep,
} from "../support/adversarial/deep-tree.js";
import { snapshot } from "../support/adversarial/outside-snapshot.js";

type Ctx = FixtureWorkspace & { outside: string };

const makeCtx = useJobWorkspace({
  // A folder beside the repository that nothing may change.
  extra: (fx) => {
    const outside = path.join(fx.base, "outside");
    mkdirSync(path.join(outside, "keep"), { recursive: true });
    writeFileSync(path.join(outside, "keep", "precious.txt"), "not the agent's\n");
    return { outside };
  },
  // Past PATH_MAX a plain recursive rm fails.
  remove: (fx) => removeDeep(fx.base),
});

// 600 levels: past the bounds many times over and, with 15-byte names, past PATH_MAX (4,096)
// at level 280; deeper chains only cost the suite time.
const DEEP = 600;

/** What a command leaves behind; `told` is what the agent must read in the check's notes. */
const SHAPES: {
  title: string;
  plant(c: Ctx): void;
  told: RegExp;
}[] = [
  {
    title: "600 folders deep, one-letter names (1,200 bytes of path)",
    plant: (c) => plantChain(c.job.root, "", "d", DEEP, { leaf: "leaf.txt" }),
    told: /removed d\/d\/d\/…\(\d+ more\)…\/d .*at most 64 deep/u,
  },
  {
    title: "600 folders deep, long names (past PATH_MAX at level 280)",
    plant: (c) => plantChain(c.job.root, "src", "folder-name-14", DEEP, { leaf: "leaf.txt" }),
    told: /removed src\/folder-name-14\/folder-name-14\/.*at most 64 deep/u,
  },
  {
    title: "five folders of 250-byte names (1,255 bytes of path)",
    plant: (c) => plantChain(c.job.root, "", "n".repeat(250), 5, { leaf: "leaf.txt" }),
    told: /at most 1024 bytes long/u,
  },
  {
    title: "wide and deep: 20 chains of 300 folders",
    plant: (c) => {
      for (let i = 0; i < 20; i += 1) plantChain(c.job.root, `wide/${i}`, "w", 300);
    },
    told: /removed wide\/0\/w\/.*at most 64 deep/u,
  },
  {
    title: "links up, to itself and outside at every level of a 400-deep chain",
    plant: (c) =>
      plantChain(c.job.root, "", "l", 400, {
        at: (folder, level) => {
          plantLink(folder, "up", "..");
          plantLink(folder, "self", ".");
          if (level % 50 === 0) plantLink(folder, "out", c.outside);
        },
      }),
    told: /removed l\/l\/l\/.*at most 64 deep/u,
  },
  {
    title: "a nested repository holding a 600-deep tree",
    plant: (c) => {
      mkdirSync(path.join(c.job.root, "vendor/lib/.git/objects"), { recursive: true });
      writeFileSync(path.join(c.job.root, "vendor/lib/.git/HEAD"), "ref: refs/heads/main\n");
      plantChain(c.job.root, "vendor/lib/.git/objects", "o", DEEP);
      writeFileSync(path.join(c.job.root, "vendor/lib/index.js"), "export {};\n");
    },
    told: /removed vendor\/lib\/\.git: repositories/u,
  },
  {
    title: "600 folders deep under .cfa/",
    plant: (c) => plantChain(c.job.root, ".cfa/junk", "c", DEEP, { leaf: "forged.json" }),
    told: /removed \.cfa\/junk\/c\/.*at most 64 deep/u,
  },
  {
    title: "a bare-shaped folder holding a 600-deep tree",
    plant: (c) => {
      const at = path.join(c.job.root, "payload");
      mkdirSync(path.join(at, "refs/heads"), { recursive: true });
      writeFileSync(path.join(at, "HEAD"), "ref: refs/heads/main\n");
      plantChain(c.job.root, "payload/objects", "b", DEEP);
    },
    told: /removed payload: repositories/u,
  },
];

const OPERATIONS: {
  title: string;
  run(c: Ctx, shape: (typeof SHAPES)[number]): Promise<void>;
}[] = [
  {
    title: "the after-command check",
    async run(c, shape) {
      const contained = await containWorkspace(c.repo, {
        protect: [".cfa/"],
        ownRecord: () => false,
      });
      expect(contained.notes.join("\n")).toMatch(shape.told);
      expect(outOfBounds(c.job.root)).toEqual([]);
    },
  },
  {
    title: "a turn's commit",
    async run(c) {
      await c.repo.commit("turn");
      const committed = c.fx.git(c.job.root, "ls-tree", "-r", "-t", "--name-only", "HEAD");
      expect(committed.split("\n").filter((file) => treeLimitExceeded(file) !== null)).toEqual([]);
      expect(outOfBounds(c.job.root)).toEqual([]);
    },
  },
  {
    title: "a task's worktree from the committed branch, under a longer root",
    async run(c) {
      await c.repo.commit("turn");
      const task = await c.workspaces.create({
        name: `task-${"t".repeat(90)}`,
        branch: "cfa/1-t",
        from: "cfa/1",
      });
      expect(c.fx.git(task.root, "status", "--porcelain")).toBe("");
    },
  },
  {
    title: "the reset after a crash",
    async run(c) {
      await c.repo.resetToHead();
      expect(c.fx.git(c.job.root, "status", "--porcelain", "--untracked-files=all")).toBe("");
      expect(outOfBounds(c.job.root)).toEqual([]);
    },
  },
  {
    title: "list_files and search_files over the tree as planted",
    async run(c) {
      const listed = await listFiles(c.job.root, "", { recursive: true, limit: 100_000 });
      expect(listed.entries.every((e) => treeLimitExceeded(e.path) !== "depth")).toBe(true);
      const found = await searchFiles(c.job.root, "deep");
      expect(found.matches.every((m) => treeLimitExceeded(m.path) !== "depth")).toBe(true);
    },
  },
];

const CASES = SHAPES.flatMap((shape) => OPERATIONS.map((op) => [shape, op] as const));

describe(
  cases("deep trees a command leaves, through every operation over a tree", CASES.length),
  () => {
    it.each(CASES.map(([shape, op]) => [shape.title, op.title, shape, op] as const))(
      "%s: %s neither throws nor leaves anything past the bounds",
      async (_shape, _op, shape, op) => {
        const c = await makeCtx();
        const before = snapshot(c.outside);
        shape.plant(c);
        await op.run(c, shape);
        expect(snapshot(c.outside)).toEqual(before);
      },
      60_000,
    );
  },
);

const TOOL_PATHS = [
  ["65 folders deep", `${"d/".repeat(65)}file.txt`, /folders nest at most 64 deep/u],
  ["a 1,100-byte path", `${"p".repeat(200)}/`.repeat(5) + "x".repeat(95), /at most 1024 bytes/u],
  ["2,000 links deep (l → .)", `${"l/".repeat(2000)}file.txt`, /symbolic links/u],
] as const;

describe(cases("paths past the bounds a file tool is asked to write", TOOL_PATHS.length), () => {
  it.each(TOOL_PATHS)("%s: refused with a tool error, nothing written", async (_t, file, why) => {
    const c = await makeCtx();
    plantLink(c.job.root, "l", ".");
    const tool = { workspace: { root: c.job.root, readOnly: false } } as unknown as ToolContext;
    await expect(writeFileTool.run({ path: file, content: "x" }, tool)).rejects.toThrow(why);
    expect(outOfBounds(c.job.root)).toEqual([]);
  });

  it("the bounds themselves let a tree as deep and long as allowed through", async () => {
    const c = await makeCtx();
    const deepest = `${"d/".repeat(MAX_TREE_DEPTH)}file.txt`;
    const tool = { workspace: { root: c.job.root, readOnly: false } } as unknown as ToolContext;
    await writeFileTool.run({ path: deepest, content: "ok\n" }, tool);
    const longest = `${"p".repeat(250)}/`.repeat(4) + "f".repeat(MAX_TREE_PATH_BYTES - 1004);
    expect(Buffer.byteLength(longest)).toBe(MAX_TREE_PATH_BYTES);
    await writeFileTool.run({ path: longest, content: "ok\n" }, tool);
    await c.repo.commit("turn");
    const committed = c.fx.git(c.job.root, "ls-tree", "-r", "--name-only", "HEAD").split("\n");
    expect(committed).toEqual(expect.arrayContaining([deepest, longest]));
  });
});

describe("positive controls: the same trees under plain git", () => {
  it("git clean exits non-zero on a tree past PATH_MAX: the reset each later wake starts with throws", async () => {
    const c = await makeCtx();
    plantChain(c.job.root, "src", "folder-name-14", DEEP, { leaf: "leaf.txt" });
    const clean = spawnSync("git", ["clean", "-d", "--force", "--quiet"], { cwd: c.job.root });
    expect(clean.status).not.toBe(0);
  });
});
