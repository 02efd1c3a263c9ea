import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fetchJobBranches } from "../../../src/worker/fetch-job-branches.js";
import { git, makeTempRemote, type TempRemote } from "../../support/git/temp-repo.js";

describe("fetching a job's branches before a wake (real git)", () => {
  let remote: TempRemote;
  let clone: string;
  beforeEach(() => {
    remote = makeTempRemote({ prefix: "cfa-fetch-", files: { "README.md": "hi\n" } });
    const { seed, bare } = remote;
    for (const branch of ["cfa/12", "cfa/12-api", "cfa/123", "cfa/1"]) {
      seed.git("branch", branch);
    }
    seed.git("commit", "--quiet", "--allow-empty", "-m", "job 12 moved on");
    seed.git("branch", "--force", "cfa/12");
    seed.git("push", "--quiet", bare, "main", "cfa/12", "cfa/12-api", "cfa/123", "cfa/1");
    clone = remote.clone("clone");
  });
  afterEach(() => remote.cleanup());

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
