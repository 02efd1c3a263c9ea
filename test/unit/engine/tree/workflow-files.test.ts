// Workflow files: a turn's changes under .github/workflows/ are put back before the turn is
// committed (a push changing them needs a permission the job's token lacks), with real git in
// a temporary repository.

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  heldBackMessage,
  heldBackNotice,
  isWorkflowPath,
  restoreWorkflowChanges,
} from "../../../../src/engine/tree/workflow-files.js";
import { JobRepo } from "../../../../src/engine/tree/job-repo.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";

let temp: TempRepo;
let root: string;
const git = (...args: string[]) => temp.git(...args);
const put = (path: string, text: string) => temp.write(path, text);

beforeEach(() => {
  temp = makeTempRepo({
    prefix: "cfa-workflows-",
    at: "",
    files: {
      ".github/workflows/ci.yml": "on: push\n",
      ".github/workflows/old.yml": "on: schedule\n",
      "src/a.txt": "a\n",
    },
  });
  root = temp.repo;
});
afterEach(() => temp.cleanup());

describe("restoreWorkflowChanges", () => {
  it("puts back new, changed and deleted workflow files and leaves every other change alone", async () => {
    put(".github/workflows/ci.yml", "on: pull_request_target\n");
    put(".github/workflows/new.yml", "on: push\n");
    await rm(join(root, ".github/workflows/old.yml"));
    put(".github/workflows/nested/deep.yml", "x\n");
    put(".GitHub/Workflows/shouty.yml", "x\n");
    put("src/a.txt", "a, changed\n");
    put("src/b.txt", "b\n");

    const held = await restoreWorkflowChanges(root);

    expect(held).toEqual([
      ".GitHub/Workflows/shouty.yml",
      ".github/workflows/ci.yml",
      ".github/workflows/nested/deep.yml",
      ".github/workflows/new.yml",
      ".github/workflows/old.yml",
    ]);
    expect(await readFile(join(root, ".github/workflows/ci.yml"), "utf8")).toBe("on: push\n");
    expect(await readFile(join(root, ".github/workflows/old.yml"), "utf8")).toBe("on: schedule\n");
    expect(existsSync(join(root, ".github/workflows/new.yml"))).toBe(false);
    expect(existsSync(join(root, ".github/workflows/nested/deep.yml"))).toBe(false);
    // The turn's other work is untouched, to be committed as usual.
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(status.split("\n").filter(Boolean).sort()).toEqual([" M src/a.txt", "?? src/b.txt"]);
  });

  it("a staged change is unstaged and restored too; nothing to do leaves nothing", async () => {
    put(".github/workflows/ci.yml", "on: workflow_dispatch\n");
    git("add", "-A");
    expect(await restoreWorkflowChanges(root)).toEqual([".github/workflows/ci.yml"]);
    expect(git("status", "--porcelain")).toBe("");
    expect(await restoreWorkflowChanges(root)).toEqual([]);
  });

  it("through the job's repo, its one look serves the commit after it (no second git status), and a held-back change is in neither", async () => {
    const repo = new JobRepo(root);
    await repo.commit("settle"); // nothing to commit: the index is known to hold HEAD
    put(".github/workflows/new.yml", "on: push\n");
    put("src/b.txt", "b\n");
    expect(await restoreWorkflowChanges(root, repo)).toEqual([".github/workflows/new.yml"]);
    const sha = await repo.commit("turn");
    expect(git("show", "--name-only", "--format=", sha!)).toBe("src/b.txt");
    // Nothing held back: the look stands for the tree, and the work is committed all the same.
    put("src/c.txt", "c\n");
    expect(await restoreWorkflowChanges(root, repo)).toEqual([]);
    const next = await repo.commit("turn 2");
    expect(git("show", "--name-only", "--format=", next!)).toBe("src/c.txt");
  });
});

describe("what is a workflow file, and what people and agents are told", () => {
  it.each([
    [".github/workflows", true],
    [".github/workflows/ci.yml", true],
    ["./.github/workflows/a/b.yaml", true],
    [".GITHUB/WORKFLOWS/x", true],
    [".github/dependabot.yml", false],
    ["docs/.github/workflows/x.yml", false],
    [".github", false],
    ["workflows/x", false],
  ])(
    "a workflow file is .github/workflows and below, whatever the case, nothing else: %s → %s",
    (path, is) => {
      expect(isWorkflowPath(path)).toBe(is);
    },
  );

  it("the person learns what was held back and what permission would allow it; the agent why", () => {
    const notice = heldBackNotice([".github/workflows/ci.yml"]);
    expect(notice).toContain("`.github/workflows/ci.yml`");
    expect(notice).toContain("Workflows: Read and write");
    expect(notice).toContain("pushWorkflows: true");
    const message = heldBackMessage([".github/workflows/ci.yml"]);
    expect(message).toContain("were not kept");
    expect(message).toContain("Workflows permission");
  });
});
