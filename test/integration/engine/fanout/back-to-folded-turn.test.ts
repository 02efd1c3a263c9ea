// Where a task run starts, over real git: the tree its task's last folded turn ended on. A run that
// stopped inside a turn pushed part of it (code committed after that turn's record, riding on a
// later call's record); the next run puts code and transcript back as the folded record named, in
// one commit, the records kept. A record's head is hostile input: one off the branch, or a record
// the lead refused, moves nothing.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitClient } from "../../../../src/git/git-client.js";
import { backToFoldedTurn } from "../../../../src/engine/fanout/back-to-folded-turn.js";
import {
  TASK_TRANSCRIPT_PATH,
  taskTurnPath,
  type TaskTurnRecord,
} from "../../../../src/records/task-turn-record.js";
import { git, removeDir, tempDir } from "../../../support/git/temp-repo.js";

describe("a task run starts from its last folded turn's tree", () => {
  let dir: string;
  let base: string;
  let folded: string;
  let other: string;
  const run = (args: string[]) => gitClient(dir).raw(args);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const commit = (message: string) => {
    git(dir, "add", "--all");
    git(dir, "commit", "--quiet", "-m", message);
    return git(dir, "rev-parse", "HEAD");
  };
  const record = (head: string, epoch = 1): TaskTurnRecord => ({
    v: 1,
    job: 1,
    task: "hello",
    epoch,
    seq: 1,
    run: "901",
    calls: 2,
    costUsd: 0.1,
    ended: true,
    sends: [],
    done: false,
    head,
  });
  const files = () => git(dir, "ls-tree", "-r", "--name-only", "HEAD").split("\n").sort();

  beforeEach(() => {
    dir = tempDir("cfa-back-");
    git(dir, "init", "--quiet", "-b", "cfa/1-hello");
    git(dir, "config", "user.name", "cfa");
    git(dir, "config", "user.email", "cfa@example.invalid");
    write("README.md", "base\n");
    base = commit("base");
    // Turn 1, folded: its code and transcript, then its ended record.
    write("hello.txt", "hello\n");
    write(TASK_TRANSCRIPT_PATH, '{"turn":1}\n');
    folded = commit("turn 1");
    write(taskTurnPath(1, 1), JSON.stringify(record(folded)));
    commit("turn 1 ended");
    // Turn 2 of a run that stopped: its code rode on a call's record, its transcript never.
    write("half.txt", "half\n");
    write("hello.txt", "hello, changed\n");
    write(taskTurnPath(2, 1), JSON.stringify({ ...record(folded), seq: 2, ended: false }));
    commit("turn 2 call 1");
    git(dir, "checkout", "--quiet", "-b", "elsewhere", base);
    write("elsewhere.txt", "x\n");
    other = commit("another branch");
    git(dir, "checkout", "--quiet", "cfa/1-hello");
  });
  afterEach(() => removeDir(dir));

  const options = (head: string, refused: string[] = []) => ({
    job: 1,
    task: "hello",
    epoch: 2,
    records: [record(head)],
    ledger: { folded: 1, refused },
    base,
  });

  it("positive control: the folded record's head on the branch — code and transcript put back in 1 commit, both records kept", async () => {
    expect(await backToFoldedTurn(run, options(folded))).toBe(folded);
    expect(files()).toEqual(
      [
        ".cfa/turns/000001-e1.json",
        ".cfa/turns/000002-e1.json",
        ".cfa/turns/transcript.jsonl",
        "README.md",
        "hello.txt",
      ].sort(),
    );
    expect(git(dir, "show", "HEAD:hello.txt")).toBe("hello");
    expect(git(dir, "log", "--format=%s", "-1")).toBe(
      "cfa #1: hello back to turn 1's tree (a run stopped inside turn 2)",
    );
    // Nothing left to put back: a second call commits nothing.
    expect(await backToFoldedTurn(run, options(folded))).toBeNull();
  });

  it("nothing folded yet: back to the task's base, the transcript gone too", async () => {
    expect(
      await backToFoldedTurn(run, { ...options(folded), ledger: { folded: 0, refused: [] } }),
    ).toBe(base);
    expect(files()).toEqual(
      [".cfa/turns/000001-e1.json", ".cfa/turns/000002-e1.json", "README.md"].sort(),
    );
  });

  it.each([
    ["a head off the branch (another branch's commit)", () => options(other)],
    ["a record the lead refused", () => options(folded, ["e1/1"])],
    ["a record of this run's own epoch", () => ({ ...options(folded), epoch: 1 })],
  ])("3 hostile or foreign records move nothing: %s", async (_what, given) => {
    const before = git(dir, "rev-parse", "HEAD");
    expect(await backToFoldedTurn(run, given())).toBeNull();
    expect(git(dir, "rev-parse", "HEAD")).toBe(before);
    expect(files()).toContain("half.txt");
  });
});
