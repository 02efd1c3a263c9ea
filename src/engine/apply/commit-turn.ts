// Where a turn is committed: once per turn, when it is applied, so that a
// turn is durable exactly when its commit exists and a crash before it redoes that turn
// alone. A worker's files are committed on its task branch first (and published); then the
// job branch takes the turn's records, through the job worktree's one commit-and-push
// (session.ts persist → job-repo.ts).

import type { Address } from "../../protocol/address.js";
import type { Workspace } from "../../ports/workspaces.js";
import { persist, type Session } from "../job/session.js";
import { commitTask } from "../turn/task-workspace.js";

/** A worker's turn on its task's branch, while the task is open. */
export async function commitTaskTurn(
  s: Session,
  task: string | null,
  message: string,
): Promise<void> {
  if (task !== null && s.engine.tasks[task]?.status === "open") {
    await commitTask(s, task, message);
  }
}

/** The turn on the job branch: the job record written, then one commit, pushed. */
export async function commitTurn(
  s: Session,
  t: { a: Address; ws: Workspace },
  message: string,
  isLead: boolean,
): Promise<void> {
  await persist(s, message, turnPaths(s, t, isLead));
}

/**
 * What a turn's commit on the job branch holds (never another turn's files): the lead works in the
 * job worktree, so everything there (its files, its records); any other instance only the records —
 * the log, the job record and its own transcript. Its files are on its branch.
 */
function turnPaths(
  s: Session,
  t: { a: Address; ws: Workspace },
  isLead: boolean,
): string[] | undefined {
  if (isLead && t.ws.root === s.jobWs.root) return undefined;
  return [s.paths.bus, s.paths.state, s.paths.instance(t.a)];
}
