// The journal's branch (src/engine/turn/journal-branch.ts) writes each commit with one
// `git fast-import` (one git process, to keep a turn cheap): these check, in a real
// repository, that the commit is the very one the plumbing it replaced made (same tree,
// parent, identity, date and message, so the same id), that forgotten entries leave the tree,
// that a reopened branch gives its entries back, and that a branch moved to a history without
// ours is not overwritten.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { JournalBranch } from "../../../../src/engine/turn/journal-branch.js";
import { BOT_IDENTITY } from "../../../../src/engine/tree/job-repo.js";
import { memoryForge, type MemoryForge } from "../../../support/engine/memory-forge.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";
import { noopLogger, type Logger } from "../../../../src/ports/logger.js";

const line = (seq: number, at: string) =>
  JSON.stringify({ seq, instance: "intent-lead@state:intent:1", at, text: `answer ${seq}` });

let repo: TempRepo;
let forge: MemoryForge;
let warnings: string[];
const logger: Logger = {
  ...noopLogger,
  warn: (message) => void warnings.push(message),
  error: (message) => void warnings.push(message),
};

beforeEach(() => {
  repo = makeTempRepo({ prefix: "cfa-journal-branch-" });
  forge = memoryForge();
  warnings = [];
});
afterEach(() => repo.cleanup());

/** What `hash-object` + `mktree` + `commit-tree` (the plumbing replaced) make of `lines`. */
function plumbingCommit(lines: string[], parent: string | null, newestAt: string): string {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: BOT_IDENTITY.name,
    GIT_AUTHOR_EMAIL: BOT_IDENTITY.email,
    GIT_COMMITTER_NAME: BOT_IDENTITY.name,
    GIT_COMMITTER_EMAIL: BOT_IDENTITY.email,
    GIT_AUTHOR_DATE: `${Date.parse(newestAt) / 1000} +0000`,
    GIT_COMMITTER_DATE: `${Date.parse(newestAt) / 1000} +0000`,
  };
  const run = (args: string[], input?: string) =>
    execFileSync("git", args, { cwd: repo.repo, env, input, encoding: "utf8" }).trim();
  const rows = lines.map((l) => {
    const oid = run(["hash-object", "-w", "--stdin"], `${l}\n`);
    const seq = (JSON.parse(l) as { seq: number }).seq;
    return `100644 blob ${oid}\t${String(seq).padStart(8, "0")}.json`;
  });
  const tree = run(["mktree"], rows.length ? `${rows.join("\n")}\n` : "");
  const parents = parent === null ? [] : ["-p", parent];
  return run(["commit-tree", tree, ...parents, "-m", `cfa: response journal (${lines.length})`]);
}

describe("the journal's branch, one git fast-import a commit", () => {
  it("makes the very commits hash-object + mktree + commit-tree made (2 commits: a new branch, then a child)", async () => {
    const { branch, lines } = await JournalBranch.open(repo.repo, forge, 1, logger);
    expect(lines).toEqual([]);
    const one = [line(1, "2026-11-22T10:00:01.000Z")];
    branch.publish(one);
    await branch.flush();
    const first = repo.git("rev-parse", "refs/heads/cfa-journal/1");
    expect(first).toBe(plumbingCommit(one, null, "2026-11-22T10:00:01.000Z"));

    const two = [...one, line(2, "2026-11-22T10:00:07.000Z")];
    branch.publish(two);
    await branch.flush();
    const second = repo.git("rev-parse", "refs/heads/cfa-journal/1");
    expect(second).toBe(plumbingCommit(two, first, "2026-11-22T10:00:07.000Z"));
    expect(forge.heads.get("cfa-journal/1")).toBe(second);
    expect(forge.did).toEqual([
      `push cfa-journal/1 ${first} (expected null)`,
      `push cfa-journal/1 ${second} (expected ${first})`,
    ]);
    expect(warnings).toEqual([]);
  });

  it("drops forgotten entries from the tree and gives the kept ones back when reopened (1 forgotten, 1 kept)", async () => {
    const { branch } = await JournalBranch.open(repo.repo, forge, 1, logger);
    const a = line(1, "2026-11-22T10:00:01.000Z");
    const b = line(2, "2026-11-22T10:00:02.000Z");
    branch.publish([a, b]);
    await branch.flush();
    branch.publish([b]);
    await branch.flush();
    expect(repo.git("ls-tree", "--name-only", "cfa-journal/1").split("\n")).toEqual([
      "00000002.json",
    ]);
    const reopened = await JournalBranch.open(repo.repo, forge, 1, logger);
    expect(reopened.lines).toEqual([b]);
    // A line with bytes outside ASCII: `data` counts bytes, not characters.
    const c = line(3, "2026-11-22T10:00:03.000Z").replace("answer", "réponse ✓");
    reopened.branch.publish([b, c]);
    await reopened.branch.flush();
    expect(repo.git("cat-file", "blob", "cfa-journal/1:00000003.json")).toBe(c);
    expect(warnings).toEqual([]);
  });

  it("a forget waits for the next push: 2 pushes for a response, a forget and the next response, not 3; the wake's flush carries a forget alone", async () => {
    const { branch } = await JournalBranch.open(repo.repo, forge, 1, logger);
    const a = line(1, "2026-11-22T10:00:01.000Z");
    const b = line(2, "2026-11-22T10:00:02.000Z");
    branch.publish([a]);
    await branch.flush();
    branch.publish([], { later: true });
    // No commit, no push yet: the branch still holds the forgotten entry.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(forge.did).toHaveLength(1);
    branch.publish([b]);
    await branch.flush();
    expect(forge.did).toHaveLength(2);
    expect(repo.git("ls-tree", "--name-only", "cfa-journal/1")).toBe("00000002.json");
    branch.publish([], { later: true });
    await branch.flush();
    expect(forge.did).toHaveLength(3);
    expect(repo.git("ls-tree", "--name-only", "cfa-journal/1")).toBe("");
    expect(warnings).toEqual([]);
  });

  it("never moves the branch off a history that does not hold its head (1 foreign commit kept)", async () => {
    const { branch } = await JournalBranch.open(repo.repo, forge, 1, logger);
    branch.publish([line(1, "2026-11-22T10:00:01.000Z")]);
    await branch.flush();
    // Positive control: the branch moves when nobody else wrote it.
    const ours = repo.git("rev-parse", "refs/heads/cfa-journal/1");
    expect(ours).not.toBe("");
    const foreign = repo.git("rev-parse", "main");
    repo.git("update-ref", "refs/heads/cfa-journal/1", foreign);
    branch.publish([line(1, "2026-11-22T10:00:01.000Z"), line(2, "2026-11-22T10:00:02.000Z")]);
    await branch.flush();
    expect(repo.git("rev-parse", "refs/heads/cfa-journal/1")).toBe(foreign);
    expect(warnings.join("\n")).toMatch(/could not be pushed to cfa-journal\/1/);
  });
});
