// A task's workspace (docs/protocol.md#workspaces): its worktree on `cfa/<N>-<task>`, opened once
// per wake; the workspace it branches from and merges into (its parent task's, or the job's); and
// the commit of a worker's turn on its branch, published so that a new runner can resume it.

import type { Address } from "../../protocol/address.js";
import type { Workspace } from "../../ports/workspaces.js";
import { JobRepo } from "../tree/job-repo.js";
import type { Session, Worktrees } from "../job/session.js";
import { taskOfThread } from "../job/instances.js";
import { runtimeOf } from "./wake-runtime.js";

/** The workspace an instance works in: its task's, or the job's (the lead, a proxy's caller). */
export async function workspaceOf(s: Worktrees, a: Address): Promise<Workspace> {
  const task = taskOfThread(a.thread);
  return task === null ? s.jobWs : taskWorkspace(s, task);
}

/** The workspace a task branches from and merges into: its parent task's, or the job's. */
export async function parentWorkspace(
  s: Worktrees,
  parent: string | undefined,
): Promise<Workspace> {
  return parent === undefined ? s.jobWs : taskWorkspace(s, parent);
}

export async function taskWorkspace(s: Worktrees, id: string): Promise<Workspace> {
  const open = s.taskWs.get(id);
  if (open) return open;
  const meta = s.engine.tasks[id];
  if (!meta) throw new Error(`cfa/engine: no task ${id}`);
  const ws = await s.workspaces.open(meta.dir, meta.branch);
  s.taskWs.set(id, ws);
  return ws;
}

/** Commits a worker's turn on its branch and publishes it, so a new runner can resume it. */
export async function commitTask(s: Session, id: string, message: string): Promise<void> {
  const ws = await taskWorkspace(s, id);
  const repo = new JobRepo(ws.root, () => s.deps.clock.now(), ws.gitDir, {
    logger: s.deps.logger,
    maxFileBytes: s.repo.maxFileBytes,
  });
  const before = await repo.head();
  const sha = await repo.commit(message);
  if (sha !== null) await pushTask(s, id, before, sha);
}

/** Publishes a task's branch, never forced: created on its first push, then compare-and-swap. */
export async function pushTask(s: Session, id: string, before: string, sha: string): Promise<void> {
  // In a task's own run its sub-tasks' branches stay in the run, their
  // only writer, and the task's own branch is pushed by the run's record writer, leased
  // (fanout/task-turn-writer.ts): nothing goes through the forge, which refuses it there.
  if (runtimeOf(s).taskRun !== null) return;
  const meta = s.engine.tasks[id];
  if (!meta) return;
  const first = before === meta.base;
  try {
    await s.deps.forge.pushBranch(meta.branch, { sha, expectedOld: first ? null : before });
  } catch (error) {
    if (!first || (error as Error | undefined)?.name !== "PushRejectedError") throw error;
    // Published already at its base (for a run of its own that GitHub then
    // refused to dispatch): the lease names that commit, never an empty one.
    if ((await s.deps.forge.readBranch(meta.branch)) !== meta.base) throw error;
    await s.deps.forge.pushBranch(meta.branch, { sha, expectedOld: meta.base });
  }
}
