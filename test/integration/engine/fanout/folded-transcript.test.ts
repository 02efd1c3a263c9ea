// Where a task's next run resumes its worker's conversation (folded-transcript.ts), against
// real git: the transcript at the head of the last folded turn's record, not the branch tip's
// — a dead run's ended turn whose record never counted is left out, as the lead leaves it.

import { afterEach, describe, expect, it } from "vitest";
import { foldedTranscript } from "../../../../src/engine/fanout/folded-transcript.js";
import type { TaskTurnRecord } from "../../../../src/records/task-turn-record.js";
import { TASK_TRANSCRIPT_PATH } from "../../../../src/records/task-turn-record.js";
import {
  commitAllIn,
  git,
  gitRaw,
  removeDir,
  tempDir,
  writeAt,
} from "../../../support/git/temp-repo.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** A repository whose commits each add one turn line to the transcript; their ids. */
function branchOfTurns(turns: string[]): { dir: string; heads: string[] } {
  const dir = tempDir("cfa-folded-transcript-");
  dirs.push(dir);
  git(dir, "init", "--quiet", "--initial-branch=cfa/1-t1");
  let text = "";
  const heads = turns.map((t) => {
    text += `${t}\n`;
    writeAt(dir, TASK_TRANSCRIPT_PATH, text);
    return commitAllIn(dir, t);
  });
  return { dir, heads };
}

function record(epoch: number, seq: number, head: string, ended = true): TaskTurnRecord {
  return {
    v: 1,
    job: 1,
    task: "t1",
    epoch,
    seq,
    run: "901",
    calls: 1,
    costUsd: 0.01,
    ended,
    sends: [],
    done: false,
    head,
  };
}

describe("the transcript a task's next run resumes from", () => {
  it("is the one at the last folded turn's head: a dead run's uncounted turn after it is cut; positive control: the tip holds that turn", async () => {
    // Epoch 1 ended turn 1 (folded), then turn 2, whose record the lead never counted (it gave
    // up on epoch 1); epoch 2 resumes with folded = 1.
    const { dir, heads } = branchOfTurns(["turn 1", "PLANTED dead turn 2"]);
    const run = async (args: string[]) => gitRaw(dir, ...args);
    const records = [record(1, 1, heads[0]!), record(1, 2, heads[1]!)];
    expect(await foldedTranscript(run, records, { epoch: 2, folded: 1 })).toBe("turn 1\n");
    expect(gitRaw(dir, "show", `HEAD:${TASK_TRANSCRIPT_PATH}`)).toContain("PLANTED");
  });

  it("takes the newest trusted epoch's record of the folded turn; nothing when none was folded or its head has no transcript", async () => {
    const { dir, heads } = branchOfTurns(["turn 1", "epoch 1's turn 2", "epoch 2's turn 2"]);
    const run = async (args: string[]) => gitRaw(dir, ...args);
    const records = [
      record(1, 1, heads[0]!),
      record(1, 2, heads[1]!),
      record(2, 2, heads[2]!),
      record(3, 2, heads[2]!, false),
    ];
    expect(await foldedTranscript(run, records, { epoch: 3, folded: 2 })).toBe(
      "turn 1\nepoch 1's turn 2\nepoch 2's turn 2\n",
    );
    expect(await foldedTranscript(run, records, { epoch: 2, folded: 0 })).toBeNull();
    // A commit without the transcript: a run that wrote none.
    git(dir, "checkout", "--quiet", "--orphan", "empty");
    git(dir, "rm", "-r", "--quiet", "-f", ".");
    writeAt(dir, "code.txt", "code\n");
    const none = commitAllIn(dir, "none");
    expect(await foldedTranscript(run, [record(1, 1, none)], { epoch: 1, folded: 1 })).toBeNull();
  });
});
