// Where a task is merged (docs/protocol.md#workspaces): a released task's branch is merged into its
// parent's with a merge commit (the Workspaces adapter's close, adapters/git/merge-branch.ts) or
// dropped unmerged (a withdraw). Every merge is verified first.

import type { Workspace } from "../../ports/workspaces.js";
import { isModelUnavailable } from "../../ports/model.js";
import { isDiskFull } from "../../ports/disk-full.js";
import { noticeComment } from "../../comments/record-comments.js";
import type { TaskMeta } from "../../records/engine-state.js";
import { JobRepo } from "../tree/job-repo.js";
import {
  applyChange,
  now,
  progress,
  type JobRecords,
  type Reporter,
  type Session,
} from "../job/session.js";
import { queueComment } from "../job/outbox.js";
import { parentWorkspace, pushTask, taskWorkspace } from "../turn/task-workspace.js";
import { verifyTask } from "./verify-task.js";
import { AUTO } from "../fanout/choose-runner.js";
import { runtimeOf } from "../turn/wake-runtime.js";

/**
 * A released task instance's workspace is merged into its parent's (a close, or end of phase) or
 * dropped (a withdraw). Every merge is verified: a branch whose head the verifier has not passed —
 * a task left open at REPLAN or REALIGN, a sub-task merged because its parent closed — is verified
 * first, and dropped with a note on the job if it fails. A conflict is aborted and reported to the
 * parent.
 */
export async function mergeOrDropTask(
  s: Session,
  id: string,
  mode: "merge" | "drop",
): Promise<{ conflict: string[] | null }> {
  if (s.engine.tasks[id]?.status !== "open") return { conflict: null };
  // A subtree ends children first. A sub-task still open when its parent ends
  // is merged into (or dropped with) the parent's branch before the parent moves on,
  // whatever order the bus releases them in; its own release then finds it done.
  for (const [child, m] of Object.entries(s.engine.tasks)) {
    if (m.parent === id && m.status === "open") await mergeOrDropTask(s, child, mode);
  }
  // A run of its own still working on the task stops (a withdrawal, the
  // phase's end, a close before its run said done); its branch is deleted below with a lease.
  // Its time is measured as the lead's run would have taken it: less what a run of its own
  // adds (two start-ups and the fold, `npm run bench -- runners`), or `auto` would expect every
  // later task to take that much longer and fan out for it.
  const overheadMs = s.engine.fanout?.tasks[id] === undefined ? 0 : AUTO.breakEvenMinutes * 60_000;
  await stopTaskRun(s, id);
  const meta = s.engine.tasks[id]!;
  const parent = meta.parent === undefined ? null : s.engine.tasks[meta.parent];
  if (mode === "merge" && parent !== null && parent?.status !== "open") {
    // Its parent's branch is gone (merged or dropped before it): nothing to merge into.
    mode = "drop";
  }
  const localHead = await s.repo.branchHead(meta.branch);
  if (localHead === null) {
    // A wake that died after the workspace adapter merged (or dropped) the branch, before
    // the task's status was committed: the release is done but for the records.
    await deleteTaskBranch(s, meta.branch, null);
    s.taskWs.delete(id);
    const status = mode === "merge" ? "merged" : "dropped";
    applyChange(s, { type: "task-status-set", id, status, at: now(s), overheadMs });
    return { conflict: null };
  }
  const ws = await taskWorkspace(s, id);
  if (mode === "merge" && !(await verifiedForMerge(s, id, ws))) mode = "drop";
  let status: TaskMeta["status"];
  let conflict: string[] | null = null;
  if (mode === "drop") {
    await s.workspaces.drop(ws);
    await deleteTaskBranch(s, meta.branch, localHead);
    status = "dropped";
    progress(s, "EXECUTE", "DROP", `task ${id} dropped, branch deleted`, true);
  } else {
    const into = await parentWorkspace(s, meta.parent);
    const intoRepo = new JobRepo(into.root, undefined, into.gitDir);
    const before = await intoRepo.head();
    const merged = await s.repo.exclusive(() =>
      s.workspaces.close(ws, into, {
        message: `cfa #${s.n}: merge task ${id}`,
        onConflict: "abort",
      }),
    );
    if (merged.kind === "conflict") {
      status = "conflict";
      conflict = merged.files;
      progress(s, "EXECUTE", "CONFLICT", `task ${id}: ${merged.files.join(", ")}`);
    } else {
      status = "merged";
      await deleteTaskBranch(s, meta.branch, localHead);
      // Into a parent task: its branch moved, publish it as its turns' commits are.
      if (meta.parent !== undefined && merged.commit !== before) {
        await pushTask(s, meta.parent, before, merged.commit);
      }
      progress(s, "EXECUTE", "MERGED", `task ${id} into ${into.branch}`);
    }
  }
  s.taskWs.delete(id);
  applyChange(s, { type: "task-status-set", id, status, at: now(s), overheadMs });
  return { conflict };
}

async function stopTaskRun(s: JobRecords & Reporter, id: string): Promise<void> {
  const ledger = s.engine.fanout?.tasks[id];
  if (ledger === undefined) return;
  if (ledger.runId !== null) {
    await s.deps.taskRuns?.cancel(ledger.runId).catch((error: unknown) => {
      s.deps.logger.warn(
        `cfa #${s.n}: task ${id}'s run ${ledger.runId} could not be cancelled: ${(error as Error).message}`,
      );
    });
  }
  applyChange(s, { type: "task-run-dropped", id });
}

/**
 * Whether the task's branch, as it is now, has the verifier's pass (no merge goes unverified)
 * — asking the verifier now if not. A fail (or a verifier that cannot run) leaves a note on the
 * job; the caller drops the task. An unavailable model is waited out, not a fail.
 */
async function verifiedForMerge(s: Session, id: string, ws: Workspace): Promise<boolean> {
  const meta = s.engine.tasks[id]!;
  const head = await new JobRepo(ws.root, undefined, ws.gitDir).head();
  if (meta.lastVerdict === "pass" && meta.verifiedHead === head) return true;
  let issues: string[];
  try {
    const verdict = await verifyTask(s, id);
    if (verdict.verdict === "pass") return true;
    issues = verdict.issues;
  } catch (error) {
    if (isModelUnavailable(error) || isDiskFull(error)) throw error;
    issues = [`the verifier could not run: ${(error as Error).message}`];
  }
  const where = s.engine.tasks[id]?.parent;
  const into = where === undefined ? s.paths.branch : `task ${where}`;
  const text = `**Task \`${id}\` was dropped, not merged into ${into}:** it reached its merge without a pass on its last commit (left open when its parent ended, or changed since it was verified), and the verifier failed it.\n\n${issues.map((i) => `- ${i}`).join("\n")}`;
  queueComment(s, "notice", (seq) => noticeComment({ job: s.n, seq, text }));
  s.notes.push(`task ${id} dropped unmerged: the verifier failed it`);
  progress(s, "VERIFY", "DROP", `${id}: open at its parent's end and failed verification`);
  return false;
}

/**
 * A task branch's deletion on the forge, with a lease (each branch has one writer): first the
 * commit this repository last had on it (what its turns pushed); if the forge's branch is elsewhere
 * — a push a crash kept from landing, or a person's commit — it is read and deleted at what it
 * holds, said in the log when that is not ours. `known` null: the local branch is gone already (a
 * wake that died mid-release), so only the forge's own head can name it.
 */
async function deleteTaskBranch(s: Session, branch: string, known: string | null): Promise<void> {
  // A sub-task of a task's own run was never pushed (task-workspace.ts pushTask).
  if (runtimeOf(s).taskRun !== null) return;
  if (known !== null) {
    try {
      await s.deps.forge.deleteBranch(branch, known);
      return;
    } catch (error) {
      if ((error as Error | undefined)?.name !== "PushRejectedError") throw error;
    }
  }
  const remote = await s.deps.forge.readBranch(branch);
  if (remote === null) return;
  if (known !== null && remote !== known) {
    s.deps.logger.warn(
      `cfa #${s.n}: task branch ${branch} was at ${remote.slice(0, 7)} on the forge, not ${known.slice(0, 7)}: deleted there as the task is released`,
    );
  }
  await s.deps.forge.deleteBranch(branch, remote);
}
