// What a task's own run pushes, for the lead's side to fold: written as such a run would
// without a model (runTaskAsItsRun: exact records, planted heads), or by task mode itself
// (runTaskInItsRun: the worker's turns on the job's scripted model).

import { mkdir, writeFile } from "node:fs/promises";
import { expect } from "vitest";
import { dirname, join } from "node:path";
import { gitClient } from "../../../src/git/git-client.js";
import { TaskTurnWriter, type TurnEnding } from "../../../src/engine/fanout/task-turn-writer.js";
import {
  wake,
  wakeTask,
  type EngineDeps,
  type TaskWakeSummary,
} from "../../../src/engine/index.js";
import { createGitWorkspaces } from "../../../src/adapters/git/index.js";
import { fetchJobBranches } from "../../../src/worker/fetch-job-branches.js";
import type { TaskRuns } from "../../../src/ports/task-runs.js";
import { git, removeDir, tempDir } from "../git/temp-repo.js";
import { asConversationModel, type LocalJob } from "./local-job.js";
import { EXECUTE_STEPS, INTENT_STEPS, PLAN_STEPS, pass, worker } from "./recordings.js";
import { call, recording, say, tools } from "./script.js";
import { approve, openJob } from "./person.js";

/**
 * One task's run as the lead sees its result: a fresh clone of the remote, the worker's code
 * committed on the task branch, its turn's record written after a model call and at the
 * turn's end (TaskTurnWriter, leased pushes). The worker's model calls are not made here:
 * this is what such a run pushes, with a record a test may bend (`claim`).
 */
export async function runTaskAsItsRun(
  remote: string,
  task: string,
  runId: string,
  file: string,
  /** The head the done record names (default: the code commit the run pushed). */
  claim?: (code: string) => string,
  /** More files committed with the code (`.cfa/` ones too: the worker's transcript, plants). */
  files: Record<string, string> = {},
  /** What the ended record says of the worker's later turns in the run (its subtree's mail). */
  subtree: Pick<TurnEnding, "workerTurns" | "subtasks" | "mail"> = {},
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
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
      await run(["add", "--force", "--", path]);
    }
    await run(["commit", "--quiet", "--no-verify", "-m", `${file}`]);
    const code = git(dir, "rev-parse", "HEAD");
    await writer.ended(
      {
        seq: 1,
        calls: 2,
        costUsd: 0.04,
        sends: [{ to: "project-lead@state:execute:1", kind: "reply", text: `${file} written` }],
        done: true,
        ...subtree,
      },
      claim ? claim(code) : code,
    );
  } finally {
    removeDir(dir);
  }
}

/** The run id the two-task jobs' dispatches are answered with: hello's 901, world's 902. */
export function runOf(task: string): string {
  return task === "hello" ? "901" : "902";
}

/** A TaskRuns port whose every dispatch is answered with `runOf(task)` and whose runs stay active. */
export function activeRuns(): TaskRuns {
  return {
    dispatch: async (i) => ({ kind: "dispatched", runId: runOf(i.task) }),
    state: async () => ({ status: "active" }),
    cancel: async () => {},
  };
}

/**
 * The lead's side of a per-task job up to its dispatch: the job opened with `taskRuns` in its
 * deps, INTENT and PLAN approved, and the wake in which the project lead dispatches its tasks
 * still to come (tests read that wake's summary). The runs push into the job's repository,
 * whose task branches are checked out in the lead's worktrees (the lead's fold moves them).
 */
export async function leadUpToDispatch(
  job: LocalJob,
  taskRuns: TaskRuns,
): Promise<LocalJob["deps"] & { taskRuns: TaskRuns }> {
  const deps = { ...job.deps, taskRuns };
  git(job.repoDir, "config", "receive.denyCurrentBranch", "ignore");
  await openJob(job);
  await wake(1, deps);
  await approve(job);
  await wake(1, deps);
  await approve(job);
  return deps;
}

/**
 * A two-task job (hello, world) whose workers run in runs of their own: the leads' turns and
 * both verifiers recorded, no worker in the lead's run; `extra` adds turns (a worker the lead
 * ends up running itself).
 */
export function tasksInOwnRunsRecording(extra: Parameters<typeof recording>[0] = {}) {
  return recording({
    "intent-lead@state:intent:1": INTENT_STEPS(),
    "project-lead@state:plan:1": PLAN_STEPS(),
    "project-lead@state:execute:1": EXECUTE_STEPS(),
    "verifier@verify:hello-1": pass(),
    "verifier@verify:world-1": pass(),
    ...extra,
  });
}

/**
 * Both tasks in runs of their own, the lead closing them in any order; hello's worker asks the
 * person "hello or hullo?" in its run (tool use `toolu_ask1`), then writes hello.txt and
 * replies. The question surfaces in the lead's run; the answer goes on in a new epoch.
 */
export function helloAsksRecording() {
  return tasksInOwnRunsRecording({
    "project-lead@state:execute:1": EXECUTE_STEPS(true),
    "worker@dispatch:hello": [
      tools(call("ask_question", { kind: "question", text: "hello or hullo?" }, "toolu_ask1")),
      tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
      tools(call("reply", { text: "hello.txt written, as answered" })),
      say("done"),
    ],
    "worker@dispatch:world": worker("world.txt"),
  });
}

/** Each task's file on the job branch after the job is DONE, and every recorded turn played. */
export function expectBothMerged(job: LocalJob): void {
  const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
  expect(files).toContain("hello.txt");
  expect(files).toContain("world.txt");
  expect(asConversationModel(job.model).unplayed()).toEqual({});
}

/**
 * One task's own run as task mode runs it (src/engine/wake-task.ts): a fresh clone of
 * the lead's repository with the job's branches fetched as the worker fetches them, its own
 * work area, the job's (scripted) model for the worker's calls, pushes to the lead's
 * repository. Returns what the task wake said and the refs the run's clone ended with.
 */
export async function runTaskInItsRun(
  job: LocalJob,
  task: string,
  runId: string,
  options: { epoch?: number; stop?: AbortSignal } = {},
): Promise<TaskWakeSummary> {
  const dir = tempDir("cfa-task-run-");
  try {
    const clone = join(dir, "repo");
    git(dir, "clone", "--quiet", job.repoDir, clone);
    await fetchJobBranches({ repoDir: clone, job: 1 });
    const deps: EngineDeps = {
      ...job.deps,
      repoDir: clone,
      workRoot: join(dir, "work"),
      workspaces: (area, o) =>
        createGitWorkspaces({ repoDir: clone, area, now: () => job.deps.clock.now(), ...o }),
    };
    return await wakeTask(
      {
        job: 1,
        task,
        epoch: options.epoch ?? 1,
        runId,
        ...(options.stop ? { stop: options.stop } : {}),
      },
      deps,
    );
  } finally {
    removeDir(dir);
  }
}
