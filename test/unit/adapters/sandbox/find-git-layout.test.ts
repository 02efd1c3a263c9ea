import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findGitLayout, mainCheckoutOf } from "../../../../src/adapters/sandbox/find-git-layout.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";

let temp: TempRepo;
let dir: string;

beforeAll(async () => {
  temp = makeTempRepo({ prefix: "cfa-gitlayout-" });
  dir = temp.root;
  temp.git("worktree", "add", "-q", "-b", "wt", path.join(dir, "wt"));
  await mkdir(path.join(dir, "plain"));
  await mkdir(path.join(dir, "broken"));
  await writeFile(path.join(dir, "broken", ".git"), "gitdir: /nonexistent/place\n");
});
afterAll(() => temp.cleanup());

describe("findGitLayout", () => {
  it("finds a plain clone's .git directory as its own gitdir", async () => {
    const layout = await findGitLayout(path.join(dir, "repo"));
    const dotGit = path.join(dir, "repo", ".git");
    expect(layout).toEqual({ dotGit, gitDir: dotGit, commonDir: dotGit, linked: false });
  });

  it("follows a linked worktree's .git file to its gitdir and the shared commondir", async () => {
    const layout = await findGitLayout(path.join(dir, "wt"));
    expect(layout).toEqual({
      dotGit: path.join(dir, "wt", ".git"),
      gitDir: path.join(dir, "repo", ".git", "worktrees", "wt"),
      commonDir: path.join(dir, "repo", ".git"),
      linked: true,
    });
    expect(mainCheckoutOf(layout!)).toBe(path.join(dir, "repo"));
  });

  it("is null without a .git, or with one that points nowhere", async () => {
    expect(await findGitLayout(path.join(dir, "plain"))).toBeNull();
    expect(await findGitLayout(path.join(dir, "broken"))).toBeNull();
  });

  it("takes a bare repository itself as the main checkout", () => {
    expect(
      mainCheckoutOf({
        dotGit: "/w/.git",
        gitDir: "/srv/r.git/worktrees/w",
        commonDir: "/srv/r.git",
        linked: true,
      }),
    ).toBe("/srv/r.git");
  });
});
