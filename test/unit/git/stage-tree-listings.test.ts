// stageTree asks git for the files it would add once when no name holds a control character
// (one listing, not two, to keep a commit cheap), and still a second time, with the narrower
// pathspecs, when one does — that file is left out of the commit as before. Real git in a temp
// repository; the git processes are counted on the engine's cfa-bot:git channel.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitClient } from "../../../src/git/git-client.js";
import { stageTree } from "../../../src/git/stage-tree.js";
import { makeTempRepo, type TempRepo } from "../../support/git/temp-repo.js";

let temp: TempRepo | undefined;
afterEach(() => temp?.cleanup());

async function lsFilesDuring(run: () => Promise<unknown>, command = "ls-files"): Promise<number> {
  let count = 0;
  const seen = (message: unknown) => {
    const args = (message as { args: readonly string[] }).args;
    if (args.includes(command)) count += 1;
  };
  subscribe("cfa-bot:git", seen);
  try {
    await run();
  } finally {
    unsubscribe("cfa-bot:git", seen);
  }
  return count;
}

describe("stageTree's listings of what git would add", () => {
  it("lists once when no name holds a control character, and stages the new file (1 case)", async () => {
    temp = makeTempRepo({ prefix: "cfa-stage-listings-" });
    writeFileSync(join(temp.repo, "plain.txt"), "hello\n");
    let result: Awaited<ReturnType<typeof stageTree>> | undefined;
    const listings = await lsFilesDuring(async () => {
      result = await stageTree(gitClient(temp!.repo), { exclude: [".cfa"] });
    });
    expect(listings).toBe(1);
    expect(result?.staged).toBe(true);
    expect(result?.refused).toEqual([]);
    expect(temp.git("diff", "--cached", "--name-only")).toBe("plain.txt");
  });

  it("lists again when a name holds one, and leaves that file out (positive control, 1 case)", async () => {
    temp = makeTempRepo({ prefix: "cfa-stage-listings-" });
    writeFileSync(join(temp.repo, "plain.txt"), "hello\n");
    writeFileSync(join(temp.repo, "x\nfatal: y"), "spoof\n");
    let result: Awaited<ReturnType<typeof stageTree>> | undefined;
    const listings = await lsFilesDuring(async () => {
      result = await stageTree(gitClient(temp!.repo), { exclude: [".cfa"] });
    });
    expect(listings).toBe(2);
    expect(result?.refused).toEqual(["x\nfatal: y"]);
    expect(temp.git("diff", "--cached", "--name-only")).toBe("plain.txt");
  });

  it("runs no git add when git would add nothing, and one for a deletion or a new file (3 cases; the last two are positive controls)", async () => {
    temp = makeTempRepo({ prefix: "cfa-stage-listings-" });
    writeFileSync(join(temp.repo, "kept.txt"), "kept\n");
    temp.git("add", "kept.txt");
    temp.git("commit", "--quiet", "--no-verify", "-m", "kept");
    const git = gitClient(temp.repo);
    const stage = () => stageTree(git, { exclude: [".cfa"] });
    let result: Awaited<ReturnType<typeof stageTree>> | undefined;
    expect(await lsFilesDuring(async () => (result = await stage()), "add")).toBe(0);
    expect(result?.staged).toBe(false);
    rmSync(join(temp.repo, "kept.txt"));
    expect(await lsFilesDuring(async () => (result = await stage()), "add")).toBe(1);
    expect(result?.staged).toBe(true);
    expect(temp.git("diff", "--cached", "--name-status")).toBe("D\tkept.txt");
    writeFileSync(join(temp.repo, "new.txt"), "new\n");
    expect(await lsFilesDuring(async () => (result = await stage()), "add")).toBe(1);
    expect(temp.git("diff", "--cached", "--name-only")).toBe("kept.txt\nnew.txt");
  });
});
