// Adversarial class "setup's installed files in a commit": a workspace's setup fills node_modules,
// .venv and the like, and the repository's .gitignore may not name them — or an agent's command
// rewrites .gitignore to un-ignore them. No turn commit (the job worktree's or a task's), no close
// of a task (its pending work committed and merged) may take them, at any depth; a reset after a
// crash keeps them (setup is not redone each turn). Positive control: plain `git add --all` over
// the same tree commits every one of them.

import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitWorkspaces } from "../../src/adapters/git/index.js";
import { DEPENDENCY_FOLDERS } from "../../src/git/dependency-folders.js";
import { JobRepo } from "../../src/engine/tree/job-repo.js";
import { makeGitFixture, type GitFixture } from "../support/git/git-fixture.js";
import { cases } from "../support/adversarial/count.js";

/** Every dependency folder, at the top and two levels down, plus hostile ignore files. */
function plant(fx: GitFixture, root: string): string[] {
  const planted: string[] = [];
  for (const name of DEPENDENCY_FOLDERS) {
    for (const at of [`${name}/pkg/index.js`, `packages/web/${name}/x/y.txt`]) {
      fx.write(root, at, "installed\n");
      planted.push(at);
    }
  }
  // One made a repository of its own: a gitlink at the folder's path, were it staged.
  fx.write(root, "packages/api/node_modules/.git/HEAD", "ref: refs/heads/main\n");
  // An agent un-ignores everything it can think of.
  fx.write(root, ".gitignore", DEPENDENCY_FOLDERS.map((n) => `!${n}/`).join("\n"));
  fx.write(root, "src/real-change.ts", "export const x = 1;\n");
  return planted;
}

let fx: GitFixture;
beforeEach(() => {
  fx = makeGitFixture();
});
afterEach(() => fx.cleanup());

const committed = (ref: string) =>
  fx.git(fx.repo, "ls-tree", "-r", "--name-only", ref).split("\n").filter(Boolean);

describe(
  cases(
    "dependency folders never reach a commit",
    DEPENDENCY_FOLDERS.length * 2,
    "planted paths per route",
  ),
  () => {
    it("positive control: plain git add --all commits every planted path", () => {
      const planted = plant(fx, fx.repo);
      fx.commitAll(fx.repo, "naive");
      expect(committed("HEAD")).toEqual(expect.arrayContaining(planted));
    });

    it("a turn's commit (JobRepo.commit) takes the real change and none of them", async () => {
      const workspaces = createGitWorkspaces({ repoDir: fx.repo, area: fx.area });
      const ws = await workspaces.create({ name: "job", branch: "cfa/12", from: "main" });
      const planted = plant(fx, ws.root);
      const repo = new JobRepo(ws.root, undefined, ws.gitDir);
      expect(await repo.commit("turn")).not.toBeNull();
      const files = committed("cfa/12");
      expect(files).toContain("src/real-change.ts");
      expect(files.filter((f) => planted.includes(f) || f.includes("node_modules"))).toEqual([]);
      // A reset after a crash keeps what setup installed.
      await repo.resetToHead();
      for (const at of planted) expect(existsSync(path.join(ws.root, at)), at).toBe(true);
    });

    it("a task's close commits its pending work and merges it without them", async () => {
      const workspaces = createGitWorkspaces({ repoDir: fx.repo, area: fx.area });
      const job = await workspaces.create({ name: "job", branch: "cfa/12", from: "main" });
      const task = await workspaces.create({ name: "task-a", branch: "cfa/12-a", from: "cfa/12" });
      const planted = plant(fx, task.root);
      const merged = await workspaces.close(task, job, { message: "merge a", onConflict: "abort" });
      expect(merged.kind).toBe("merged");
      const files = committed("cfa/12");
      expect(files).toContain("src/real-change.ts");
      expect(files.filter((f) => planted.includes(f))).toEqual([]);
    });
  },
);
