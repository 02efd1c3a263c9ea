// A task run's turn records on its branch, over real git: the writer rewrites a turn's record after
// each model call and ends it with its decisions, each write one commit of the record alone pushed
// with a lease naming what this run last pushed; the lead's reader finds exactly the records a run
// wrote. A run whose branch another writer moved (a newer epoch) or deleted (a withdrawal) stops at
// its next write, having changed nothing.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gitClient } from "../../../../src/git/git-client.js";
import { readTaskTurnRecords } from "../../../../src/engine/fanout/task-turn-files.js";
import {
  StaleTaskRunError,
  TaskTurnWriter,
} from "../../../../src/engine/fanout/task-turn-writer.js";
import { git, makeTempRemote, removeDir, type TempRemote } from "../../../support/git/temp-repo.js";

const REF = "refs/heads/cfa/7-api";
const LEAD = "project-lead@job:7";

describe("a task run's turn records on its branch", () => {
  let remote: TempRemote;
  let clone: string;
  let writer: TaskTurnWriter;
  const run = (args: string[]) => gitClient(clone).raw(args);

  beforeEach(() => {
    remote = makeTempRemote({ prefix: "cfa-turns-" });
    remote.seed.git("push", "--quiet", remote.bare, `main:${REF}`);
    clone = remote.clone("task-run");
    git(clone, "config", "user.name", "cfa");
    git(clone, "config", "user.email", "cfa@example.invalid");
    git(clone, "checkout", "--quiet", "-b", "cfa/7-api", "origin/cfa/7-api");
    writer = new TaskTurnWriter({
      git: run,
      writeFile: async (path, text) => {
        mkdirSync(dirname(join(clone, path)), { recursive: true });
        writeFileSync(join(clone, path), text);
      },
      remote: "origin",
      ref: REF,
      head: git(remote.bare, "rev-parse", REF),
      who: { job: 7, task: "api", epoch: 2, run: "901" },
    });
  });
  afterEach(() => remote.cleanup());

  /** What the lead's run reads: the task branch as its own clone fetched it. */
  const onRemote = async () => {
    const lead = join(remote.root, "lead");
    git(remote.root, "clone", "--quiet", "--no-checkout", remote.bare, lead);
    try {
      return await readTaskTurnRecords(
        (args) => gitClient(lead).raw(args),
        git(lead, "rev-parse", "origin/cfa/7-api"),
      );
    } finally {
      removeDir(lead);
    }
  };

  it("rewrites a turn's record after each call, then ends it: the lead reads one record, ended, with what it cost and decided", async () => {
    await writer.called({ seq: 1, calls: 1, costUsd: 0.1 });
    expect((await onRemote()).records).toMatchObject([{ seq: 1, calls: 1, ended: false }]);
    await writer.called({ seq: 1, calls: 2, costUsd: 0.2 });
    // The agent's own work in the tree: committed by the engine as the turn's code, not with a record.
    writeFileSync(join(clone, "api.ts"), "export const api = 1;\n");
    git(clone, "add", "api.ts");
    git(clone, "commit", "--quiet", "-m", "api turn 1");
    const code = git(clone, "rev-parse", "HEAD");
    writeFileSync(join(clone, "half-done.ts"), "unfinished\n");
    const sends = [{ to: LEAD, kind: "reply" as const, text: "done" }];
    await writer.ended({ seq: 1, calls: 2, costUsd: 0.2, sends, done: true }, code);

    const read = await onRemote();
    expect(read.refused).toEqual([]);
    expect(read.records).toEqual([
      {
        v: 1,
        job: 7,
        task: "api",
        epoch: 2,
        run: "901",
        seq: 1,
        calls: 2,
        costUsd: 0.2,
        ended: true,
        sends,
        done: true,
        head: code,
      },
    ]);
    expect(git(remote.bare, "rev-parse", REF)).toBe(writer.head);
    // The record's commits hold the record alone; the code commit is beneath them.
    expect(git(remote.bare, "show", "--name-only", "--format=", REF)).toBe(
      ".cfa/turns/000001-e2.json",
    );
    expect(git(remote.bare, "merge-base", "--is-ancestor", code, REF)).toBe("");
    expect(git(remote.bare, "ls-tree", "--name-only", REF)).not.toContain("half-done.ts");
  });

  it("stops at its next write when a newer epoch's run moved the branch, and when the lead deleted it: nothing of it lands", async () => {
    await writer.called({ seq: 1, calls: 1, costUsd: 0.1 });
    // The lead gave up on this run: the next epoch's run pushed on the branch.
    const other = remote.clone("epoch-3");
    git(other, "checkout", "--quiet", "cfa/7-api");
    git(
      other,
      "-c",
      "user.name=x",
      "-c",
      "user.email=x@x",
      "commit",
      "--quiet",
      "--allow-empty",
      "-m",
      "epoch 3",
    );
    git(other, "push", "--quiet", "origin", "cfa/7-api");
    const theirs = git(remote.bare, "rev-parse", REF);

    await expect(writer.called({ seq: 1, calls: 2, costUsd: 0.2 })).rejects.toThrow(
      StaleTaskRunError,
    );
    expect(git(remote.bare, "rev-parse", REF)).toBe(theirs);

    // Withdrawn: the lead deleted the branch with its lease; the run's lease cannot re-create it.
    git(remote.bare, "update-ref", "-d", REF);
    await expect(writer.called({ seq: 1, calls: 3, costUsd: 0.3 })).rejects.toThrow(/is gone/);
    expect(git(remote.bare, "for-each-ref", REF)).toBe("");
  });
});
