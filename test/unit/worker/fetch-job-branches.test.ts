import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fetchJobBranches } from "../../../src/worker/fetch-job-branches.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

describe("fetching a job's branches before a wake (real git)", () => {
  let root: string;
  let clone: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "cfa-fetch-"));
    const bare = join(root, "github.git");
    const seed = join(root, "seed");
    git(root, "init", "--quiet", "--bare", "--initial-branch=main", bare);
    git(root, "init", "--quiet", "--initial-branch=main", seed);
    git(seed, "config", "user.name", "Ana");
    git(seed, "config", "user.email", "ana@example.com");
    await writeFile(join(seed, "README.md"), "hi\n");
    git(seed, "add", "-A");
    git(seed, "commit", "--quiet", "-m", "initial");
    for (const branch of ["cfa/12", "cfa/12-api", "cfa/123", "cfa/1"]) {
      git(seed, "branch", branch);
    }
    git(seed, "commit", "--quiet", "--allow-empty", "-m", "job 12 moved on");
    git(seed, "branch", "--force", "cfa/12");
    git(seed, "push", "--quiet", bare, "main", "cfa/12", "cfa/12-api", "cfa/123", "cfa/1");
    clone = join(root, "clone");
    git(root, "clone", "--quiet", bare, clone);
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  it("fetches cfa/<N> and its task branches as local branches, and nothing of other jobs", async () => {
    const fetched = await fetchJobBranches({ repoDir: clone, job: 12 });
    expect(fetched).toEqual({ job: true, branches: ["cfa/12", "cfa/12-api"] });
    const local = git(clone, "for-each-ref", "--format=%(refname:short)", "refs/heads/");
    expect(local.split("\n").sort()).toEqual(["cfa/12", "cfa/12-api", "main"]);
  });

  it("overwrites a stale local copy: GitHub's branch is the truth", async () => {
    git(clone, "branch", "cfa/12", "origin/cfa/12-api");
    await fetchJobBranches({ repoDir: clone, job: 12 });
    expect(git(clone, "rev-parse", "cfa/12")).toBe(git(clone, "rev-parse", "origin/cfa/12"));
  });

  it("says the job has not started when GitHub has no cfa/<N>", async () => {
    expect(await fetchJobBranches({ repoDir: clone, job: 13 })).toEqual({
      job: false,
      branches: [],
    });
  });
});
