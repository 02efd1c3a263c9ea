// Starting a task (docs/protocol.md#workspaces): each dispatched worker gets a worktree on
// `cfa/<N>-<task>` branched from its parent's branch — the job branch for the lead's tasks,
// the dispatching task's for a sub-task (a task may itself dispatch further tasks) — or
// waits for a free slot under the fan-out cap ([send-block]).

import { isDiskFull } from "../../ports/disk-full.js";
import { join } from "node:path";
import { threads } from "../../protocol/address.js";
import type { Content } from "../../protocol/bus/index.js";
import type { Workspace } from "../../ports/workspaces.js";
import { JobRepo } from "../tree/job-repo.js";
import {
  applyChange,
  now,
  progress,
  type Session,
  type JobRecords,
  type Reporter,
} from "../job/session.js";
import type { TaskMeta } from "../../records/engine-state.js";
import { parentWorkspace } from "../turn/task-workspace.js";
import { dispatchTaskRun } from "../fanout/dispatch-task-run.js";

export interface NewTask {
  id: string;
  brief: string;
  files: string[];
  /** The dispatching task's id; undefined when the state's lead dispatched it. */
  parent: string | undefined;
}

/** The files a dispatch asked to copy into the task's workspace, carried by its message. */
export function filesOf(content: Content): string[] {
  const files = content.data?.files;
  return Array.isArray(files) ? files.filter((f): f is string => typeof f === "string") : [];
}

/**
 * At [spark] (or [unblock]): the task's worktree, branched from its parent's
 * commit as it is now — after the dispatching turn was committed, so a sub-task sees its
 * parent's work — and verified at creation (a workspace that cannot be verified is a hard
 * error here).
 */
export async function provisionTask(s: Session, task: NewTask): Promise<Workspace> {
  const dir = `task-${task.id}`;
  const branch = s.paths.taskBranch(task.id);
  // A worktree left by a turn a crash cut short is not a live task: start it afresh.
  await s.workspaces.drop({ root: join(s.area, dir), branch }).catch(() => undefined);
  const parentWs = await parentWorkspace(s, task.parent);
  const base = await new JobRepo(parentWs.root, undefined, parentWs.gitDir).head();
  const ws = await s.workspaces.create({
    name: dir,
    branch,
    from: base,
    ...(task.files.length > 0 ? { copy: { from: parentWs, files: task.files } } : {}),
  });
  const meta: TaskMeta = {
    ...taskMeta(s, task, "open"),
    base,
    // Its wall time, start to merge or drop, is what `execute.runners: auto` expects next.
    startedAt: now(s),
  };
  applyChange(s, { type: "task-recorded", id: task.id, meta });
  s.taskWs.set(task.id, ws);
  const under = task.parent === undefined ? "" : ` under task ${task.parent}`;
  progress(s, "EXECUTE", "DISPATCH", `task ${task.id}${under} on ${branch}`, true);
  // A run of its own, when the config and `chooseRunner` say so.
  await dispatchTaskRun(s, task);
  return ws;
}

/**
 * [send-block]: a task past its parent's fan-out cap waits. Its worktree is
 * made when it starts, from its parent's commit then, so it sees the work merged meanwhile.
 */
export function queueTask(s: JobRecords & Reporter, task: NewTask): void {
  applyChange(s, { type: "task-recorded", id: task.id, meta: taskMeta(s, task, "queued") });
  progress(s, "EXECUTE", "QUEUED", `task ${task.id} waits for a free slot`);
}

function taskMeta(s: Pick<Session, "paths">, task: NewTask, status: "open" | "queued"): TaskMeta {
  return {
    thread: threads.dispatch(task.id),
    branch: s.paths.taskBranch(task.id),
    dir: `task-${task.id}`,
    base: "",
    brief: task.brief,
    status,
    verifyFailures: 0,
    ...(task.parent === undefined ? {} : { parent: task.parent }),
    ...(status === "queued" && task.files.length > 0 ? { files: task.files } : {}),
  };
}

/**
 * [spark] or [unblock] started a task: provision it now. False when its workspace could not
 * be made (the caller ends the task and tells its parent); the task is recorded dropped.
 */
export async function startTask(
  s: Session,
  task: NewTask,
): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    await provisionTask(s, task);
    return { ok: true };
  } catch (error) {
    // A full disk is the runner's, not the task's: the wake pauses the job (disk-pause.ts).
    if (isDiskFull(error)) throw error;
    const meta = { ...taskMeta(s, task, "queued"), status: "dropped" as const };
    applyChange(s, { type: "task-recorded", id: task.id, meta });
    return { ok: false, error: (error as Error).message };
  }
}
