// To keep a turn cheap, a job's worktrees share one listing of the repository's drivers (one
// `git config` process per repository, not per task), unless a worktree can see other config —
// its own config.worktree, or an include that differs per worktree (`includeIf onbranch:`).
// Real git in a temp dir; `run` is the listing the runner would start, counted.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { driverOverrides } from "../../../src/git/driver-overrides.js";
import type { GitResult } from "../../../src/git/git-result.js";

let base: string;
let repo: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd })
    .toString()
    .trim();

function counted(): {
  runs: string[];
  run: (gitDir: string) => (args: readonly string[]) => Promise<GitResult>;
} {
  const runs: string[] = [];
  return {
    runs,
    run: (gitDir) => async (args) => {
      runs.push(gitDir);
      const out = spawnSync("git", [...args], {
        cwd: repo,
        env: {
          PATH: process.env.PATH,
          GIT_DIR: gitDir,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_CONFIG_GLOBAL: "/dev/null",
        },
      });
      return { code: out.status, stdout: out.stdout, stderr: out.stderr.toString() };
    },
  };
}

/** The linked worktree's git dir, as the engine passes it (GIT_DIR). */
function addWorktree(name: string): string {
  git(repo, "worktree", "add", "--quiet", "-b", `cfa/1-${name}`, path.join(base, name));
  return path.join(repo, ".git", "worktrees", name);
}

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), "cfa-drivers-"));
  repo = path.join(base, "repo");
  execFileSync("git", ["init", "--quiet", "--initial-branch=main", repo]);
  writeFileSync(path.join(repo, "f"), "x\n");
  git(repo, "add", "f");
  git(repo, "commit", "--quiet", "-m", "0");
  git(repo, "config", "merge.evil.driver", "touch /tmp/never %A");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("driverOverrides", () => {
  it("lists once for a repository and all its linked worktrees (3 worktrees, 1 listing)", async () => {
    const { runs, run } = counted();
    const dirs = [path.join(repo, ".git"), addWorktree("a"), addWorktree("b"), addWorktree("c")];
    for (const dir of dirs) {
      expect(await driverOverrides(dir, run(dir))).toEqual(["merge.evil.driver=false"]);
    }
    expect(runs).toHaveLength(1);
  });

  it("lists again when the common config changes", async () => {
    const { runs, run } = counted();
    const a = addWorktree("a");
    await driverOverrides(a, run(a));
    git(repo, "config", "filter.f.clean", "touch /tmp/never");
    const b = addWorktree("b");
    expect(await driverOverrides(b, run(b))).toContain("filter.f.clean=");
    expect(runs).toHaveLength(2);
  });

  it("lists per worktree when the config includes by branch, and finds the branch's driver", async () => {
    const extra = path.join(base, "extra.config");
    writeFileSync(extra, '[merge "branchy"]\n\tdriver = touch /tmp/never %A\n');
    git(repo, "config", "includeIf.onbranch:cfa/1-b.path", extra);
    const { runs, run } = counted();
    const a = addWorktree("a");
    const b = addWorktree("b");
    expect(await driverOverrides(a, run(a))).toEqual(["merge.evil.driver=false"]);
    // Positive control: shared with a, b would miss the driver only its branch includes.
    expect(await driverOverrides(b, run(b))).toContain("merge.branchy.driver=false");
    expect(runs).toEqual([a, b]);
  });

  it("lists per worktree when the worktree has its own config.worktree", async () => {
    git(repo, "config", "extensions.worktreeConfig", "true");
    const { runs, run } = counted();
    const a = addWorktree("a");
    const b = addWorktree("b");
    git(path.join(base, "b"), "config", "--worktree", "filter.own.smudge", "touch /tmp/never");
    expect(await driverOverrides(a, run(a))).toEqual(["merge.evil.driver=false"]);
    expect(await driverOverrides(b, run(b))).toContain("filter.own.smudge=");
    expect(runs).toEqual([a, b]);
  });
});
