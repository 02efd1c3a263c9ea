// Whose a work root is (src/cli/work-root.ts), over real git: a repository's own areas are
// kept — by its id, or because it registers a worktree there — and anything else is stale.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimWorkRoot, defaultWorkRoot, REPOSITORY_ID_FILE } from "../../../src/cli/work-root.js";

let root: string;
let repo: string;
let area: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cfa-claim-test-"));
  repo = join(root, "repo");
  area = join(root, "work", "abc");
  await mkdir(repo);
  git("init", "--quiet", "--initial-branch=main");
  git("-c", "user.name=A", "-c", "user.email=a@x", "commit", "--quiet", "--allow-empty", "-m", "i");
});
afterEach(async () => rm(root, { recursive: true, force: true }));

const repoId = () => readFileSync(join(repo, ".git", "cfa-local", REPOSITORY_ID_FILE), "utf8");
const areaId = () => readFileSync(join(area, REPOSITORY_ID_FILE), "utf8");

describe("claimWorkRoot", () => {
  it("makes a new root the repository's, with one id in both places", async () => {
    const claim = await claimWorkRoot(area, repo);
    expect(claim.replaced).toBe(false);
    expect(repoId()).toBe(`${claim.id}\n`);
    expect(areaId()).toBe(`${claim.id}\n`);
    expect((await claimWorkRoot(area, repo)).id).toBe(claim.id);
  });

  it("replaces a root another repository's id marks, when this one registers nothing there", async () => {
    await mkdir(join(area, "1", "job"), { recursive: true });
    await writeFile(join(area, REPOSITORY_ID_FILE), "00000000-0000-4000-8000-000000000000\n");
    await writeFile(join(area, "1", "responses.jsonl"), "{}\n");
    const claim = await claimWorkRoot(area, repo);
    expect(claim.replaced).toBe(true);
    expect(existsSync(join(area, "1"))).toBe(false);
    expect(areaId()).toBe(`${claim.id}\n`);
  });

  it("keeps a root made before ids that holds a worktree this repository registers", async () => {
    await mkdir(join(area, "1"), { recursive: true });
    git("worktree", "add", "--quiet", "-b", "cfa/1", join(area, "1", "job"));
    const claim = await claimWorkRoot(area, repo);
    expect(claim.replaced).toBe(false);
    expect(existsSync(join(area, "1", "job", ".git"))).toBe(true);
    expect(areaId()).toBe(`${claim.id}\n`);
  });

  it("keeps its areas when the repository lost its id, taking the root's back", async () => {
    await mkdir(join(area, "1"), { recursive: true });
    git("worktree", "add", "--quiet", "-b", "cfa/1", join(area, "1", "job"));
    const first = await claimWorkRoot(area, repo);
    await rm(join(repo, ".git", "cfa-local"), { recursive: true });
    const again = await claimWorkRoot(area, repo);
    expect(again).toEqual({ id: first.id, replaced: false });
    expect(repoId()).toBe(`${first.id}\n`);
  });

  it("refuses a root that is not a folder, in one line, and leaves it", async () => {
    await mkdir(join(root, "work"), { recursive: true });
    await writeFile(area, "not a folder");
    await expect(claimWorkRoot(area, repo)).rejects.toThrow(
      `${area}, where this repository's job areas go, is not a folder: move it away.`,
    );
    expect(readFileSync(area, "utf8")).toBe("not a folder");
  });

  it("says in one line where it could not write, and what helps", async () => {
    await writeFile(join(root, "a-file"), "");
    const under = join(root, "a-file", "work", "abc");
    await expect(claimWorkRoot(under, repo)).rejects.toThrow(
      /^cannot keep this repository's job areas: .*a-file.*: a part of the path is a file, not a folder \(ENOTDIR\)\. Set XDG_CACHE_HOME to a folder you can write\.$/,
    );
  });
});

describe("defaultWorkRoot", () => {
  it("is under XDG_CACHE_HOME when it is absolute, else under HOME's .cache", () => {
    expect(defaultWorkRoot("/r", { XDG_CACHE_HOME: "/c" })).toMatch(
      /^\/c\/cfa-bot\/work\/[0-9a-f]{12}$/,
    );
    expect(defaultWorkRoot("/r", { XDG_CACHE_HOME: "rel", HOME: "/h" })).toMatch(
      /^\/h\/\.cache\/cfa-bot\/work\/[0-9a-f]{12}$/,
    );
    expect(defaultWorkRoot("/r", { HOME: "/h" })).not.toBe(defaultWorkRoot("/s", { HOME: "/h" }));
  });
});
