// What a task's own run pushes (issue 15 point 6), for the lead's side to fold: the engine's
// task mode does not run a task's instances yet, so the tests write it as such a run would.

import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { gitClient } from "../../../src/git/git-client.js";
import { TaskTurnWriter } from "../../../src/engine/fanout/task-turn-writer.js";
import { git, removeDir, tempDir } from "../git/temp-repo.js";

/**
 * One task's run as the lead sees its result: a fresh clone of the remote, the worker's code
 * committed on the task branch, its turn's record written after a model call and at the
 * turn's end (TaskTurnWriter, leased pushes). The worker's model calls are not made here:
 * task mode does not run a task's instances yet; this is what such a run pushes.
 */
export async function runTaskAsItsRun(
  remote: string,
  task: string,
  runId: string,
  file: string,
  /** The head the done record names (default: the code commit the run pushed). */
  claim?: (code: string) => string,
): Promise<void> {
  const dir = tempDir("cfa-task-run-");
  try {
    git(dir, "clone", "--quiet", "--branch", `cfa/1-${task}`, remote, ".");
    const client = gitClient({
      baseDir: dir,
      config: ["user.name=worker", "user.email=worker@example.invalid"],
    });
    const run = (args: string[]) => client.raw(args);
    const writer = new TaskTurnWriter({
      git: run,
      writeFile: async (path, text) => {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      },
      remote,
      ref: `refs/heads/cfa/1-${task}`,
      head: git(dir, "rev-parse", "HEAD"),
      who: { job: 1, task, epoch: 1, run: runId },
    });
    await writer.called({ seq: 1, calls: 1, costUsd: 0.02 });
    await writeFile(join(dir, file), `${file}\n`);
    await run(["add", "--", file]);
    await run(["commit", "--quiet", "--no-verify", "-m", `${file}`]);
    const code = git(dir, "rev-parse", "HEAD");
    await writer.ended(
      {
        seq: 1,
        calls: 2,
        costUsd: 0.04,
        sends: [{ to: "project-lead@state:execute:1", kind: "reply", text: `${file} written` }],
        done: true,
      },
      claim ? claim(code) : code,
    );
  } finally {
    removeDir(dir);
  }
}
