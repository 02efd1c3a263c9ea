// A task run's per-turn record on its branch: rewritten after every model
// call with what the turn has cost so far (so a run killed mid-turn has still told the lead
// what it paid), and once more when the turn ends with what it decided (its sends, whether the
// task is done, the commit of its code). Each write is one commit of the record's file alone —
// an agent's uncommitted files in the worktree stay out of it — pushed with a lease naming
// the commit this run last saw on the branch. A push that finds the branch elsewhere means
// another writer holds it now (the lead dispatched a newer epoch, or withdrew the job and
// deleted the branch): the run is stale and stops (StaleTaskRunError), writing nothing more.

import { taskTurnPath, type TaskTurnRecord } from "../../records/task-turn-record.js";
import { pushLeased, type RunGit } from "./leased-refs.js";

export class StaleTaskRunError extends Error {
  override readonly name = "StaleTaskRunError";
}

export interface TaskTurnWriterOptions {
  /** git in the task's worktree (the hardened client: an agent's commands ran there). */
  git: RunGit;
  /** Writes a file in the worktree through the engine's boundary (tree/files.ts). */
  writeFile: (path: string, text: string) => Promise<void>;
  remote: string;
  /** The task branch, refs/heads/cfa/<N>-<task>. */
  ref: string;
  /** The branch's commit when this run started on it: the first lease. */
  head: string;
  /** Who writes: the job, the task, the epoch the lead dispatched, this Actions run. */
  who: Pick<TaskTurnRecord, "job" | "task" | "epoch" | "run">;
  /** `git push --push-option` values (the simulation's remote logs who pushed). */
  pushOptions?: string[];
}

export type TurnProgress = Pick<TaskTurnRecord, "seq" | "calls" | "costUsd" | "timing">;
export type TurnEnding = TurnProgress &
  Pick<TaskTurnRecord, "sends" | "done" | "workerTurns" | "subtasks" | "mail">;

export class TaskTurnWriter {
  private current: string;

  constructor(private readonly o: TaskTurnWriterOptions) {
    this.current = o.head;
  }

  /** The branch's commit as this run last pushed it. */
  get head(): string {
    return this.current;
  }

  /** After a model call: the turn's cost so far; its decisions do not count yet. */
  async called(turn: TurnProgress): Promise<void> {
    await this.write({ ...turn, ended: false, sends: [], done: false, head: null });
  }

  /**
   * At the turn's end, after its code was committed on the branch (`codeHead`, the commit the
   * lead verifies before a merge): what it decided. Returns the record's commit.
   */
  async ended(turn: TurnEnding, codeHead: string): Promise<string> {
    return this.write({ ...turn, ended: true, head: codeHead });
  }

  private async write(
    fields: Omit<TaskTurnRecord, "v" | "job" | "task" | "epoch" | "run">,
  ): Promise<string> {
    const record: TaskTurnRecord = { v: 1, ...this.o.who, ...fields };
    const path = taskTurnPath(record.seq, record.epoch);
    await this.o.writeFile(path, `${JSON.stringify(record)}\n`);
    await this.o.git(["add", "--", path]);
    const what = record.ended ? "ended" : `call ${record.calls}`;
    await this.o.git([
      "commit",
      "--quiet",
      "--no-verify",
      "--only",
      "-m",
      `cfa #${record.job}: ${record.task} turn ${record.seq} ${what} (epoch ${record.epoch})`,
      "--",
      path,
    ]);
    const sha = (await this.o.git(["rev-parse", "--verify", "HEAD"])).trim();
    const out = await pushLeased(
      this.o.git,
      this.o.remote,
      [{ ref: this.o.ref, to: sha, lease: { sha: this.current } }],
      this.o.pushOptions ? { pushOptions: this.o.pushOptions } : {},
    );
    if (out.kind === "moved") {
      const now = out.remote[this.o.ref] ?? null;
      throw new StaleTaskRunError(
        `cfa/engine: ${this.o.ref} is ${now === null ? "gone" : `at ${now.slice(0, 12)}`}, not at ${this.current.slice(0, 12)}: another run holds task ${record.task} now`,
      );
    }
    this.current = sha;
    return sha;
  }
}
