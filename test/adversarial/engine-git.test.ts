// Adversarial class "the engine's git over a hostile tree": nothing in a workspace may run code as
// the engine or wedge its commits. An agent's commands can write any file, link, nested repository
// or git config in its workspace — the worktree's own `.git` file too — and the repository's owner
// may have configured hooks and drivers an agent can aim at. Every attack below plants a payload
// that writes a marker outside the tree (and dumps its environment there), then runs every git
// operation the engine runs over a workspace: a turn's commits, the after-command check, a task's
// worktree created from the job branch, its close (commit of pending work and the merge), the reset
// after a crash, and blob reads. No payload may run; no gitlink may be committed; no operation may
// wedge. Positive controls run the same payloads through plain git, so a payload that could never
// run would fail its control, not pass silently.

import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containWorkspace } from "../../src/engine/tree/contain-workspace.js";
import { appendText, readText, writeText } from "../../src/engine/tree/files.js";
import type { JobRepo } from "../../src/engine/tree/job-repo.js";
import type { Workspace, Workspaces } from "../../src/ports/workspaces.js";
import { makeGitFixture, type GitFixture } from "../support/git/git-fixture.js";
import { jobWorkspace } from "../support/git/job-workspace.js";
import { git, writeAt } from "../support/git/temp-repo.js";
import { cases } from "../support/adversarial/count.js";
import { plantSecrets } from "../support/adversarial/plant-secrets.js";

const PLANTED = plantSecrets("EngineGit");

const HOOKS = [
  "pre-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-merge-commit",
  "post-merge",
  "post-checkout",
  "post-rewrite",
  "reference-transaction",
  "pre-auto-gc",
  "post-index-change",
  "fsmonitor-watchman",
] as const;

interface Ctx {
  fx: GitFixture;
  /** Outside every tree: where a payload that ran leaves its marker. */
  markers: string;
  workspaces: Workspaces;
  job: Workspace;
  repo: JobRepo;
  /** An executable that writes marker `name` (and its environment) when run. */
  payload(name: string): string;
  /** The same payload as text, for a hook or script file planted in a tree. */
  script(name: string): string;
  ran(): string[];
}

async function makeCtx(): Promise<Ctx> {
  const fx = makeGitFixture();
  const markers = path.join(fx.base, "markers");
  mkdirSync(path.join(markers, "bin"), { recursive: true });
  const script = (name: string) =>
    `#!/bin/sh\necho ran >> '${markers}/${name}'\nenv >> '${markers}/${name}.env'\ncat /proc/$PPID/environ >> '${markers}/${name}.env' 2>/dev/null\nexit 0\n`;
  const payload = (name: string) => {
    const file = path.join(markers, "bin", name);
    writeFileSync(file, script(name));
    chmodSync(file, 0o755);
    return file;
  };
  const { workspaces, job, repo } = await jobWorkspace(fx);
  const ran = () => readdirSync(markers).filter((name) => name !== "bin" && !name.endsWith(".env"));
  return { fx, markers, workspaces, job, repo, payload, script, ran };
}

const gitQuiet = (cwd: string, ...args: string[]) =>
  spawnSync("git", args, { cwd, encoding: "utf8" });
const ID = ["-c", "user.name=Agent", "-c", "user.email=agent@example.com"];

const write = writeAt;

/** What an agent's command does to the job's tree (and what the owner configured). */
interface Attack {
  title: string;
  plant(ctx: Ctx): void | Promise<void>;
  /** Checks after every operation ran, beyond "no payload ran". */
  after?(ctx: Ctx): void | Promise<void>;
  /** Undoes what `plant` did to this process (its environment). */
  cleanup?(): void;
}

function nestedRepo(ctx: Ctx, dir: string, options: { commit: boolean }): void {
  const at = path.join(ctx.job.root, dir);
  mkdirSync(at, { recursive: true });
  git(at, "init", "--quiet");
  if (options.commit) git(at, ...ID, "commit", "--quiet", "--allow-empty", "-m", "nested");
  git(at, "config", "core.fsmonitor", ctx.payload(`fsmonitor-${dir.replace(/\W/g, "_")}`));
  for (const hook of HOOKS) write(at, `.git/hooks/${hook}`, ctx.script(`nested-hook-${hook}`));
  for (const hook of HOOKS) chmodSync(path.join(at, ".git/hooks", hook), 0o755);
  write(at, "lib.js", "export const x = 1;\n");
}

/** A git dir an agent made, whose config and hooks run whatever it says. */
function evilGitDir(ctx: Ctx, where: string): string {
  git(path.dirname(where), "init", "--quiet", "--bare", path.basename(where));
  // Not bare: git will use it with the tree that names it as its work tree.
  git(where, "config", "core.bare", "false");
  git(where, "config", "core.fsmonitor", ctx.payload("evil-fsmonitor"));
  git(where, "config", "core.hooksPath", path.join(where, "hooks"));
  for (const hook of HOOKS) {
    write(where, `hooks/${hook}`, ctx.script(`evil-hook-${hook}`));
    chmodSync(path.join(where, "hooks", hook), 0o755);
  }
  return where;
}

function noGitlinkEverCommitted(ctx: Ctx): void {
  for (const branch of ctx.fx.branches()) {
    const commits = git(ctx.fx.repo, "rev-list", branch).split("\n");
    for (const commit of commits) {
      expect(git(ctx.fx.repo, "ls-tree", "-r", commit), `${branch} ${commit}`).not.toMatch(
        /^160000 /mu,
      );
    }
  }
}

const ATTACKS: Attack[] = [
  {
    title: "a nested repository with core.fsmonitor and hooks (code run as the engine)",
    plant: (ctx) => nestedRepo(ctx, "vendor/lib", { commit: true }),
    after: noGitlinkEverCommitted,
  },
  {
    title: "an empty nested repository: git init sub (every commit would fail)",
    plant: (ctx) => nestedRepo(ctx, "sub", { commit: false }),
    after: (ctx) => {
      noGitlinkEverCommitted(ctx);
      expect(existsSync(path.join(ctx.job.root, "sub/.git"))).toBe(false);
    },
  },
  {
    title: "a nested .git file pointing at a git dir outside",
    plant: (ctx) => {
      const evil = evilGitDir(ctx, path.join(ctx.fx.base, "evil-nested.git"));
      write(ctx.job.root, "pkg/.git", `gitdir: ${evil}\n`);
      write(ctx.job.root, "pkg/index.js", "1\n");
    },
    after: noGitlinkEverCommitted,
  },
  {
    title: "a nested .git symbolic link to a git dir",
    plant: (ctx) => {
      const evil = evilGitDir(ctx, path.join(ctx.fx.base, "evil-linked.git"));
      mkdirSync(path.join(ctx.job.root, "linked"), { recursive: true });
      symlinkSync(evil, path.join(ctx.job.root, "linked/.git"));
      write(ctx.job.root, "linked/x.txt", "x\n");
    },
    after: noGitlinkEverCommitted,
  },
  {
    title: "a nested repository inside an ignored folder",
    plant: (ctx) => {
      write(ctx.job.root, ".gitignore", "node_modules/\n");
      nestedRepo(ctx, "node_modules/pkg", { commit: true });
    },
    after: noGitlinkEverCommitted,
  },
  {
    title: "a nested bare repository with core.fsmonitor",
    plant: (ctx) => {
      mkdirSync(path.join(ctx.job.root, "vendor"), { recursive: true });
      git(path.join(ctx.job.root, "vendor"), "init", "--quiet", "--bare", "bare.git");
      git(
        path.join(ctx.job.root, "vendor/bare.git"),
        "config",
        "core.fsmonitor",
        ctx.payload("bare-fsmonitor"),
      );
    },
  },
  {
    title: "core.fsmonitor in the repository's own config",
    plant: (ctx) => git(ctx.fx.repo, "config", "core.fsmonitor", ctx.payload("repo-fsmonitor")),
  },
  {
    title: "the repository's own hooks (every hook, in its .git/hooks; gc.auto=1)",
    plant: (ctx) => {
      git(ctx.fx.repo, "config", "gc.auto", "1");
      for (const hook of HOOKS) {
        const file = path.join(ctx.fx.repo, ".git/hooks", hook);
        writeFileSync(file, ctx.script(`repo-hook-${hook}`));
        chmodSync(file, 0o755);
      }
    },
  },
  {
    title: "core.hooksPath into the tree (a husky-style .husky/ the agent writes)",
    plant: (ctx) => {
      git(ctx.fx.repo, "config", "core.hooksPath", ".husky");
      for (const hook of HOOKS) {
        write(ctx.job.root, `.husky/${hook}`, ctx.script(`husky-${hook}`));
        chmodSync(path.join(ctx.job.root, ".husky", hook), 0o755);
      }
    },
  },
  {
    title: "attribute drivers: filter, merge and diff drivers aimed at every path",
    plant: (ctx) => {
      const cfg = (key: string, value: string) => git(ctx.fx.repo, "config", key, value);
      cfg("filter.evil.clean", ctx.payload("filter-clean"));
      cfg("filter.evil.smudge", ctx.payload("filter-smudge"));
      cfg("filter.evil.required", "true");
      cfg("merge.evil.driver", `${ctx.payload("merge-driver")} %O %A %B`);
      cfg("merge.default", "evil");
      cfg("diff.evil.textconv", ctx.payload("diff-textconv"));
      cfg("diff.evil.command", ctx.payload("diff-command"));
      cfg("diff.external", ctx.payload("diff-external"));
      write(ctx.job.root, ".gitattributes", "* filter=evil merge=evil diff=evil\n");
    },
  },
  {
    title: ".gitmodules with an update command and a url transport",
    plant: (ctx) => {
      write(
        ctx.job.root,
        ".gitmodules",
        `[submodule "x"]\n\tpath = x\n\turl = ext::${ctx.payload("gitmodules-url")}\n\tupdate = !${ctx.payload("gitmodules-update")}\n`,
      );
      nestedRepo(ctx, "x", { commit: true });
    },
    after: noGitlinkEverCommitted,
  },
  {
    title: "a linked .gitmodules and names git refuses (.GIT, git~1, .git.)",
    plant: (ctx) => {
      symlinkSync("/etc/passwd", path.join(ctx.job.root, ".gitmodules"));
      write(ctx.job.root, "a/.GIT/config", `[core]\n\tfsmonitor = ${ctx.payload("dotGIT")}\n`);
      write(ctx.job.root, "b/git~1/x", "x\n");
      write(ctx.job.root, "c/.git./x", "x\n");
      write(ctx.job.root, "kept.txt", "this one is committed\n");
    },
    after: (ctx) => {
      expect(git(ctx.fx.repo, "show", "cfa/1:kept.txt")).toBe("this one is committed");
    },
  },
  {
    title: "the worktree's own .git file rewritten to a git dir the agent made",
    plant: (ctx) => {
      const evil = evilGitDir(ctx, path.join(ctx.job.root, "evil.git"));
      writeFileSync(path.join(ctx.job.root, ".git"), `gitdir: ${evil}\n`);
    },
    after: (ctx) => {
      // The engine's commits landed on the job branch, not in the agent's git dir.
      expect(git(ctx.fx.repo, "log", "--format=%s", "cfa/1")).toContain("turn 2");
      // (a commit through it would have made its branch: HEAD there names refs/heads/master)
      expect(existsSync(path.join(ctx.job.root, "evil.git/refs/heads/master"))).toBe(false);
      // And the pointer is the repository's again.
      expect(readFileSync(path.join(ctx.job.root, ".git"), "utf8")).toBe(
        `gitdir: ${ctx.job.gitDir}\n`,
      );
    },
  },
  {
    title: "the worktree's .git file pointed at another worktree's git dir",
    plant: async (ctx) => {
      const other = await ctx.workspaces.create({
        name: "other",
        branch: "cfa/1-other",
        from: "main",
      });
      writeFileSync(path.join(ctx.job.root, ".git"), `gitdir: ${other.gitDir}\n`);
    },
    after: (ctx) => {
      expect(git(ctx.fx.repo, "log", "--format=%s", "cfa/1-other")).not.toContain("turn");
      expect(git(ctx.fx.repo, "log", "--format=%s", "cfa/1")).toContain("turn 2");
    },
  },
  {
    title: "a per-worktree config (config.worktree) with core.fsmonitor",
    plant: (ctx) => {
      git(ctx.fx.repo, "config", "extensions.worktreeConfig", "true");
      writeFileSync(
        path.join(ctx.job.gitDir!, "config.worktree"),
        `[core]\n\tfsmonitor = ${ctx.payload("worktree-config")}\n\thooksPath = ${path.join(ctx.markers, "bin")}\n`,
      );
    },
  },
  {
    title: "core.untrackedCache=true in the repository's config",
    plant: (ctx) => git(ctx.fx.repo, "config", "core.untrackedCache", "true"),
    after: (ctx) => {
      // The engine never writes the untracked cache (the UNTR index extension).
      expect(readFileSync(path.join(ctx.job.gitDir!, "index")).includes("UNTR")).toBe(false);
    },
  },
  {
    title: "records under attack: .gitattributes and .gitignore aimed at .cfa/",
    plant: async (ctx) => {
      write(
        ctx.job.root,
        ".gitattributes",
        ".cfa/** text eol=crlf ident working-tree-encoding=UTF-16LE\n",
      );
      write(ctx.job.root, ".gitignore", ".cfa/\n");
      await ctx.repo.commit("attributes");
      await writeText(ctx.job.root, ".cfa/jobs/1/state.json", '{"id":"$Id: x $"}\n');
      await appendText(ctx.job.root, ".cfa/jobs/1/bus.jsonl", '{"seq":1}\n');
    },
    after: async (ctx) => {
      // Committed byte for byte, and read back byte for byte after the reset.
      expect(git(ctx.fx.repo, "show", "cfa/1:.cfa/jobs/1/state.json")).toBe('{"id":"$Id: x $"}');
      expect(await readText(ctx.job.root, ".cfa/jobs/1/state.json")).toBe('{"id":"$Id: x $"}\n');
      expect(await readText(ctx.job.root, ".cfa/jobs/1/bus.jsonl")).toBe('{"seq":1}\n');
    },
  },
  (() => {
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
    return {
      title: "a hostile global and XDG config (HOME, XDG_CONFIG_HOME)",
      plant: (ctx: Ctx) => {
        const home = path.join(ctx.fx.base, "home");
        const hooks = path.join(home, "hooks");
        for (const hook of HOOKS) {
          write(hooks, hook, ctx.script(`global-hook-${hook}`));
          chmodSync(path.join(hooks, hook), 0o755);
        }
        const config = [
          "[core]",
          `\tfsmonitor = ${ctx.payload("global-fsmonitor")}`,
          `\thooksPath = ${hooks}`,
          `[filter "g"]`,
          `\tclean = ${ctx.payload("global-clean")}`,
          `\tsmudge = ${ctx.payload("global-smudge")}`,
          `[merge "g"]`,
          `\tdriver = ${ctx.payload("global-merge")}`,
          "",
        ].join("\n");
        write(home, ".gitconfig", config);
        write(home, ".config/git/config", config);
        write(home, ".config/git/attributes", "* filter=g merge=g\n");
        process.env.HOME = home;
        process.env.XDG_CONFIG_HOME = path.join(home, ".config");
      },
      cleanup: () => {
        for (const [key, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
        }
      },
    } satisfies Attack;
  })(),
];

/** Every git operation the engine runs over a workspace, in the order a job would. */
const OPERATIONS: { name: string; run(ctx: Ctx, task: { ws?: Workspace }): Promise<void> }[] = [
  {
    name: "a turn's commit",
    async run(ctx) {
      write(ctx.job.root, "work.txt", "turn 1\n");
      write(ctx.job.root, "shared.txt", "the job's line\n");
      await ctx.repo.commit("turn 1");
    },
  },
  {
    name: "the next turn's commit (the gitlink's second add)",
    async run(ctx) {
      write(ctx.job.root, "work.txt", "turn 2\n");
      await ctx.repo.commit("turn 2");
    },
  },
  {
    name: "the after-command check",
    async run(ctx) {
      await containWorkspace(ctx.repo, {
        ...(ctx.job.gitDir ? { gitDir: ctx.job.gitDir } : {}),
        protect: [".cfa/"],
        ownRecord: () => false,
      });
      await ctx.repo.commit("after the check");
    },
  },
  {
    name: "a task's worktree from the job branch",
    async run(ctx, task) {
      task.ws = await ctx.workspaces.create({
        name: "t1",
        branch: "cfa/1-t1",
        from: await ctx.repo.head(),
      });
    },
  },
  {
    name: "the task's close: its pending work and the merge",
    async run(ctx, task) {
      write(task.ws!.root, "shared.txt", "the task's line\n");
      write(task.ws!.root, "task.txt", "done\n");
      await ctx.workspaces.close(task.ws!, ctx.job, { message: "merge t1", onConflict: "abort" });
    },
  },
  {
    name: "the reset after a crash",
    async run(ctx) {
      write(ctx.job.root, "half-a-turn.txt", "x\n");
      await ctx.repo.resetToHead();
    },
  },
  {
    name: "blob reads",
    async run(ctx) {
      const head = await ctx.repo.head();
      await ctx.repo.fileAt(head, "README.md");
      await ctx.repo.blobAt(head, "README.md");
    },
  },
];

const total = ATTACKS.length * OPERATIONS.length;

describe(cases("the engine's git over a hostile tree", total, "attack × operation cases"), () => {
  describe.each(ATTACKS)("$title", (attack) => {
    let ctx: Ctx;
    const task: { ws?: Workspace } = {};
    beforeAll(async () => {
      ctx = await makeCtx();
      await attack.plant(ctx);
    });
    afterAll(() => {
      attack.cleanup?.();
      ctx.fx.cleanup();
    });

    it.each(OPERATIONS)("$name runs nothing and does not wedge", async (op) => {
      await op.run(ctx, task);
      expect(ctx.ran()).toEqual([]);
    });

    it("leaves no marker, no secret outside, and what the attack demands", async () => {
      expect(ctx.ran()).toEqual([]);
      await attack.after?.(ctx);
    });
  });
});

// The payloads are real: through plain git (as the engine once ran it, unhardened) each runs.
describe(cases("positive controls: plain git runs these payloads", 6), () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await makeCtx();
  });
  afterAll(() => ctx.fx.cleanup());
  const plainAdd = (cwd: string) => gitQuiet(cwd, "add", "--all");

  it("a nested repository's core.fsmonitor, at the second git add", () => {
    nestedRepo(ctx, "vendor/lib", { commit: true });
    plainAdd(ctx.job.root);
    plainAdd(ctx.job.root);
    expect(ctx.ran()).toContain("fsmonitor-vendor_lib");
    // It ran as the engine: with the engine's environment, secrets included.
    expect(readFileSync(path.join(ctx.markers, "fsmonitor-vendor_lib.env"), "utf8")).toContain(
      PLANTED.GITHUB_TOKEN,
    );
  });

  it("post-commit despite --no-verify", () => {
    const hook = path.join(ctx.fx.repo, ".git/hooks/post-commit");
    writeFileSync(hook, ctx.script("control-post-commit"));
    chmodSync(hook, 0o755);
    git(ctx.job.root, ...ID, "commit", "--quiet", "--no-verify", "--allow-empty", "-m", "x");
    expect(ctx.ran()).toContain("control-post-commit");
    rmSync(hook);
  });

  it("a filter driver named by .gitattributes", () => {
    git(ctx.fx.repo, "config", "filter.evil.clean", ctx.payload("control-filter"));
    write(ctx.job.root, ".gitattributes", "*.txt filter=evil\n");
    write(ctx.job.root, "f.txt", "x\n");
    plainAdd(ctx.job.root);
    expect(ctx.ran()).toContain("control-filter");
  });

  it("the tree's own .git file, rewritten", () => {
    const evil = evilGitDir(ctx, path.join(ctx.job.root, "evil.git"));
    const saved = readFileSync(path.join(ctx.job.root, ".git"), "utf8");
    writeFileSync(path.join(ctx.job.root, ".git"), `gitdir: ${evil}\n`);
    gitQuiet(ctx.job.root, "status");
    writeFileSync(path.join(ctx.job.root, ".git"), saved);
    expect(ctx.ran()).toContain("evil-fsmonitor");
  });

  it("a per-worktree config's core.fsmonitor", () => {
    git(ctx.fx.repo, "config", "extensions.worktreeConfig", "true");
    writeFileSync(
      path.join(ctx.job.gitDir!, "config.worktree"),
      `[core]\n\tfsmonitor = ${ctx.payload("control-worktree-config")}\n`,
    );
    write(ctx.job.root, "g.txt", "y\n");
    gitQuiet(ctx.job.root, "status");
    expect(ctx.ran()).toContain("control-worktree-config");
  });

  it("a merge driver named by .gitattributes", () => {
    git(ctx.fx.repo, "config", "merge.evil.driver", ctx.payload("control-merge"));
    write(ctx.job.root, ".gitattributes", "*.txt merge=evil\n");
    write(ctx.job.root, "m.txt", "base\n");
    git(ctx.job.root, "add", "--all");
    git(ctx.job.root, ...ID, "commit", "--quiet", "--no-verify", "-m", "base");
    git(ctx.job.root, "checkout", "--quiet", "-b", "side");
    write(ctx.job.root, "m.txt", "side\n");
    git(ctx.job.root, ...ID, "commit", "--quiet", "--no-verify", "-am", "side");
    git(ctx.job.root, "checkout", "--quiet", "cfa/1");
    write(ctx.job.root, "m.txt", "ours\n");
    git(ctx.job.root, ...ID, "commit", "--quiet", "--no-verify", "-am", "ours");
    gitQuiet(ctx.job.root, ...ID, "merge", "--no-edit", "side");
    expect(ctx.ran()).toContain("control-merge");
  });
});
