// No repository-shaped payload survives a commit (a committed bare repository runs its payload when
// a reviewer runs git in that folder of a clone). Each shape git accepts as a repository (setup.c
// is_git_directory: a valid HEAD, `objects` and `refs` that pass access(X_OK) — folders, links,
// executable files — or a `commondir` naming where they are) is planted with a `core.fsmonitor`
// payload, by a command's hand (the after-command check) and by a file tool's (write_file), and
// committed. Nothing of it may reach the commit, and the agent is told. Positive control: plain
// git, with its default safe.bareRepository=all, runs the payload from a fresh clone of what
// `git add --all` would have committed.

import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileTool } from "../../src/agents/tools/write-file-tool.js";
import type { ToolContext } from "../../src/agents/tools/tool.js";
import { removeNestedRepos } from "../../src/git/nested-repos.js";
import { JobRepo } from "../../src/engine/tree/job-repo.js";
import { isRepositoryShape } from "../../src/git/repository-shape.js";
import { cases } from "../support/adversarial/count.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

let base: string;
let marker: string;

/** A bare repository's files under `dir`, with a payload in its config. */
function plantShape(root: string, dir: string, shape: string): void {
  const at = join(root, dir);
  mkdirSync(at, { recursive: true });
  const config = `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "echo ran > ${marker}; false"\n`;
  const head = (name = "HEAD") => writeFileSync(join(at, name), "ref: refs/heads/main\n");
  const dirs = (objects = "objects", refs = "refs") => {
    mkdirSync(join(at, objects), { recursive: true });
    writeFileSync(join(at, objects, ".keep"), "");
    mkdirSync(join(at, refs, "heads"), { recursive: true });
    writeFileSync(join(at, refs, "heads", ".keep"), "");
  };
  switch (shape) {
    case "folders":
    case "deep in the tree": // the same folders, planted deep (SHAPES says where)
      head();
      dirs();
      writeFileSync(join(at, "config"), config);
      break;
    case "links to folders":
      head();
      symlinkSync(".", join(at, "objects"));
      symlinkSync(".", join(at, "refs"));
      writeFileSync(join(at, "config"), config);
      break;
    case "executable files":
      head();
      for (const name of ["objects", "refs"]) {
        writeFileSync(join(at, name), "");
        chmodSync(join(at, name), 0o755);
      }
      writeFileSync(join(at, "config"), config);
      break;
    case "a commondir":
      head();
      writeFileSync(join(at, "commondir"), "../common\n");
      mkdirSync(join(root, dir, "..", "common"), { recursive: true });
      break;
    case "a detached HEAD":
      writeFileSync(join(at, "HEAD"), `${"a".repeat(40)}\n`);
      dirs();
      writeFileSync(join(at, "config"), config);
      break;
    case "upper and lower case (case-insensitive filesystems)":
      head("head");
      dirs("Objects", "REFS");
      writeFileSync(join(at, "Config"), config);
      break;
    case "HFS+ ignorable characters":
      head("HE\u200cAD");
      dirs("obj\u200dects", "refs");
      writeFileSync(join(at, "config"), config);
      break;
    case "HEAD and config only":
      head();
      writeFileSync(join(at, "config"), config);
      break;
    default:
      throw new Error(shape);
  }
}

const SHAPES = [
  ["folders", "payload"],
  ["links to folders", "payload"],
  ["executable files", "payload"],
  ["a commondir", "payload/wt"],
  ["a detached HEAD", "payload"],
  ["upper and lower case (case-insensitive filesystems)", "payload"],
  ["HFS+ ignorable characters", "payload"],
  ["deep in the tree", "src/vendor/a/b/c/payload"],
  ["HEAD and config only", "payload"],
] as const;

/** A file tool writes regular files only: links and executable bits come from commands. */
const TOOL_SHAPES = SHAPES.filter(
  ([shape]) => shape !== "links to folders" && shape !== "executable files",
);

async function freshRepo(name: string): Promise<string> {
  const dir = join(base, name);
  mkdirSync(dir);
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "README.md"), "hi\n");
  git(dir, "add", "README.md");
  git(dir, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "init");
  return dir;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "cfa-shapes-"));
  marker = join(base, "fsmonitor-ran");
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe(cases("repository shapes a command leaves", SHAPES.length), () => {
  it.each(SHAPES)("%s: removed by the after-command check, never committed", async (shape, dir) => {
    const root = await freshRepo(`cmd-${SHAPES.findIndex(([s]) => s === shape)}`);
    plantShape(root, dir, shape);
    const repo = new JobRepo(root);
    const removed = await removeNestedRepos(root, repo.git);
    expect(removed.length).toBeGreaterThan(0);
    await repo.commit("turn");
    const tree = git(root, "ls-tree", "-r", "--name-only", "HEAD");
    expect(tree).not.toMatch(/HEAD|head|commondir/u);
    expect(existsSync(marker)).toBe(false);
  });
});

describe(cases("repository shapes a file tool writes", TOOL_SHAPES.length), () => {
  it.each(TOOL_SHAPES)(
    "%s: the write that completes it removes it, and the agent is told",
    async (shape, dir) => {
      const root = await freshRepo(`tool-${SHAPES.findIndex(([s]) => s === shape)}`);
      plantShape(root, dir, shape);
      // The plant above minus its HEAD, then HEAD written by the tool, completes the shape.
      const headName = shape.startsWith("upper")
        ? "head"
        : shape.startsWith("HFS")
          ? "HE\u200cAD"
          : "HEAD";
      await rm(join(root, dir, headName));
      const ctx = { workspace: { root, readOnly: false } } as unknown as ToolContext;
      const result = await writeFileTool.run(
        { path: `${dir}/${headName}`, content: "ref: refs/heads/main\n" },
        ctx,
      );
      expect(result.text).toContain("a folder holding HEAD");
      expect(existsSync(join(root, dir))).toBe(false);
    },
  );

  it("and a commit removes any shape that reached the tree some other way", async () => {
    const root = await freshRepo("commit");
    plantShape(root, "payload", "folders");
    await new JobRepo(root).commit("turn");
    expect(git(root, "ls-tree", "-r", "--name-only", "HEAD")).toBe("README.md\n");
  });

  it("a bare repository the project committed before the job, untouched, is the project's own", async () => {
    const root = await freshRepo("fixture");
    plantShape(root, "test/fixtures/bare", "folders");
    git(root, "add", "--all");
    git(root, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "fixture");
    const repo = new JobRepo(root);
    expect(await removeNestedRepos(root, repo.git)).toEqual([]);
    // Changed by the job (a config with a payload), it goes.
    writeFileSync(join(root, "test/fixtures/bare/config"), "[core]\n\tfsmonitor = evil\n");
    expect(await removeNestedRepos(root, repo.git)).toEqual(["test/fixtures/bare"]);
  });

  it("ordinary folders with one of the names are left alone", () => {
    expect(isRepositoryShape(["HEAD", "README.md"])).toBe(false);
    expect(isRepositoryShape(["refs", "objects", "config"])).toBe(false);
    expect(isRepositoryShape(["HEAD", "refs"])).toBe(true);
  });
});

describe("positive control", () => {
  it("committed as is, a bare repository runs its fsmonitor in a fresh clone under plain git", async () => {
    const root = await freshRepo("control");
    plantShape(root, "payload", "folders");
    git(root, "add", "--all");
    git(root, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "evil");
    const clone = join(base, "control-clone");
    git(base, "clone", "-q", root, clone);
    try {
      execFileSync("git", ["status"], {
        cwd: join(clone, "payload"),
        env: { PATH: process.env.PATH, HOME: base, GIT_CONFIG_NOSYSTEM: "1" },
        stdio: "ignore",
      });
    } catch {
      // git may fail after running the monitor; what matters is that it ran
    }
    expect(existsSync(marker)).toBe(true);
    await rm(marker, { force: true });
  });
});
