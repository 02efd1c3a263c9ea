// Tasks (seed 000 §6, §10): each dispatched worker gets a worktree on `cfa/<N>-<task>`
// branched from its parent's branch — the job branch for the lead's tasks, the dispatching
// task's for a sub-task (§2 "a task may itself dispatch further tasks"; issue 11 point 2);
// a verifier checks it before any merge; a close merges it back into its parent's branch
// with a merge commit, a withdraw drops it (and its subtree) unmerged.

import { join } from "node:path";
import { threads } from "../../protocol/address.js";
import type { Content } from "../../protocol/bus/index.js";
import type { Workspace } from "../../ports/workspaces.js";
import { asData } from "../../comments/sanitize.js";
import { JobRepo } from "../tree/job-repo.js";
import type { Session } from "../job/session.js";
import { append, progress } from "../job/session.js";
import { runAgent } from "../turn/agent-run.js";
import { PHASES } from "../../skills/phases.js";
import type { TaskMeta } from "../../records/engine-state.js";
import { isModelUnavailable } from "../../ports/model.js";
import { enqueue } from "../publish/outbox.js";
import { noticeComment } from "../../comments/record-comments.js";
import { systemPrompt } from "../turn/prompts.js";

export interface NewTask {
  id: string;
  brief: string;
  files: string[];
  /** The dispatching task's id; undefined when the state's lead dispatched it. */
  parent: string | undefined;
}

/** The workspace a task branches from and merges into: its parent task's, or the job's. */
export async function parentWorkspace(s: Session, parent: string | undefined): Promise<Workspace> {
  return parent === undefined ? s.jobWs : taskWorkspace(s, parent);
}

/** The files a dispatch asked to copy into the task's workspace, carried by its message. */
export function filesOf(content: Content): string[] {
  const files = content.data?.files;
  return Array.isArray(files) ? files.filter((f): f is string => typeof f === "string") : [];
}

/**
 * Seed 000 §10 at [spark] (or [unblock]): the task's worktree, branched from its parent's
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
  };
  s.engine = { ...s.engine, tasks: { ...s.engine.tasks, [task.id]: meta } };
  s.taskWs.set(task.id, ws);
  const under = task.parent === undefined ? "" : ` under task ${task.parent}`;
  progress(s, "EXECUTE", "DISPATCH", `task ${task.id}${under} on ${branch}`, true);
  return ws;
}

/**
 * Seed 000 §13 [send-block]: a task past its parent's fan-out cap waits. Its worktree is
 * made when it starts, from its parent's commit then, so it sees the work merged meanwhile.
 */
export function queueTask(s: Session, task: NewTask): void {
  const meta = taskMeta(s, task, "queued");
  s.engine = { ...s.engine, tasks: { ...s.engine.tasks, [task.id]: meta } };
  progress(s, "EXECUTE", "QUEUED", `task ${task.id} waits for a free slot`);
}

function taskMeta(s: Session, task: NewTask, status: "open" | "queued"): TaskMeta {
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
    const meta = { ...taskMeta(s, task, "queued"), status: "dropped" as const };
    s.engine = { ...s.engine, tasks: { ...s.engine.tasks, [task.id]: meta } };
    return { ok: false, error: (error as Error).message };
  }
}

export async function taskWorkspace(s: Session, id: string): Promise<Workspace> {
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
  });
  const before = await repo.head();
  const sha = await repo.commit(message);
  if (sha !== null) await pushTask(s, id, before, sha);
}

/** Publishes a task's branch, never forced: created on its first push, then compare-and-swap. */
async function pushTask(s: Session, id: string, before: string, sha: string): Promise<void> {
  const meta = s.engine.tasks[id];
  if (!meta) return;
  await s.deps.forge.pushBranch(meta.branch, {
    sha,
    expectedOld: before === meta.base ? null : before,
  });
}

/**
 * Seed 002's verifier: a read-only agent checks the task's branch against its brief and
 * INTENT.md and returns pass or fail with the issues. Runs inside the lead's `close`.
 */
export async function verifyTask(
  s: Session,
  id: string,
  signal?: AbortSignal,
): Promise<{ verdict: "pass" | "fail"; issues: string[]; notes: string }> {
  const meta = s.engine.tasks[id];
  if (!meta) throw new Error(`cfa/engine: no task ${id}`);
  const ws = await taskWorkspace(s, id);
  // Each verifier run has its own thread: a pass re-verified at a later merge is a new run.
  const attempt = (meta.verifyRuns ?? meta.verifyFailures) + 1;
  const address = { agent: "verifier", thread: threads.verify(`${id}-${attempt}`) };
  const intent = s.paths.artifact(PHASES.INTENT.artifact);
  const run = await runAgent(s, {
    address,
    role: "verifier",
    ws,
    readOnly: true,
    system: systemPrompt(s, address, "verifier"),
    incoming: {
      kind: "task",
      text: [
        `Verify task \`${id}\` of job #${s.n}. The task's changes are the commits since \`${meta.base}\`: start with \`git diff ${meta.base} HEAD\`.`,
        `INTENT.md is at \`${intent}\`. The task's brief:`,
        asData("task brief", meta.brief),
        "Give your verdict with the `verdict` tool.",
      ].join("\n\n"),
    },
    ...(signal ? { signal } : {}),
  });
  // The verifier may have run commands that touched files: put the branch back as it was.
  const repo = new JobRepo(ws.root, undefined, ws.gitDir, { logger: s.deps.logger });
  await repo.resetToHead();
  // A verifier turn that broke is the close's error (the lead hears it), not a failed task.
  if (run.failure !== null) {
    throw new Error(`cfa/engine: the verifier of task ${id} failed: ${run.failure}`);
  }
  const verdict = run.decisions.verdict ?? {
    verdict: "fail" as const,
    issues: ["the verifier ended without a verdict; close the task again to re-run it"],
    notes: "",
  };
  // What was verified: a merge of the branch at any other commit is verified again.
  const head = await repo.head();
  const { verifiedHead: _stale, ...rest } = s.engine.tasks[id]!;
  const updated: TaskMeta = {
    ...rest,
    lastVerdict: verdict.verdict,
    verifyFailures: meta.verifyFailures + (verdict.verdict === "fail" ? 1 : 0),
    verifyRuns: attempt,
    ...(verdict.verdict === "pass" ? { verifiedHead: head } : {}),
  };
  s.engine = { ...s.engine, tasks: { ...s.engine.tasks, [id]: updated } };
  // The verdict is part of the conversation log, like outcomes and transitions.
  await append(s, [
    { type: "verdict", task: id, by: address, verdict: verdict.verdict, issues: verdict.issues },
  ]);
  progress(
    s,
    "VERIFY",
    "VERDICT",
    verdict.verdict === "pass"
      ? `${id} ✓ pass`
      : `${id} ✗ fail — ${verdict.issues.length} issue(s)`,
  );
  return verdict;
}

/**
 * Seed 000 §10: a released task instance's workspace is merged into its parent's (a close,
 * or end of phase) or dropped (a withdraw). Every merge is verified (issue 11 point 7): a
 * branch whose head the verifier has not passed — a task left open at REPLAN or REALIGN, a
 * sub-task merged because its parent closed — is verified first, and dropped with a note on
 * the job if it fails. A conflict is aborted and reported to the parent.
 */
export async function releaseTask(
  s: Session,
  id: string,
  mode: "merge" | "drop",
): Promise<{ conflict: string[] | null }> {
  if (s.engine.tasks[id]?.status !== "open") return { conflict: null };
  // Seed 000 §9: a subtree ends children first. A sub-task still open when its parent ends
  // is merged into (or dropped with) the parent's branch before the parent moves on,
  // whatever order the bus releases them in; its own release then finds it done.
  for (const [child, m] of Object.entries(s.engine.tasks)) {
    if (m.parent === id && m.status === "open") await releaseTask(s, child, mode);
  }
  const meta = s.engine.tasks[id]!;
  const parent = meta.parent === undefined ? null : s.engine.tasks[meta.parent];
  if (mode === "merge" && parent !== null && parent?.status !== "open") {
    // Its parent's branch is gone (merged or dropped before it): nothing to merge into.
    mode = "drop";
  }
  if (!(await s.repo.hasBranch(meta.branch))) {
    // A wake that died after the workspace adapter merged (or dropped) the branch, before
    // the task's status was committed: the release is done but for the records.
    await s.deps.forge.deleteBranch(meta.branch);
    s.taskWs.delete(id);
    const status = mode === "merge" ? "merged" : "dropped";
    s.engine = { ...s.engine, tasks: { ...s.engine.tasks, [id]: { ...meta, status } } };
    return { conflict: null };
  }
  const ws = await taskWorkspace(s, id);
  if (mode === "merge" && !(await verifiedForMerge(s, id, ws))) mode = "drop";
  let status: TaskMeta["status"];
  let conflict: string[] | null = null;
  if (mode === "drop") {
    await s.workspaces.drop(ws);
    await s.deps.forge.deleteBranch(meta.branch);
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
      await s.deps.forge.deleteBranch(meta.branch);
      // Into a parent task: its branch moved, publish it as its turns' commits are.
      if (meta.parent !== undefined && merged.commit !== before) {
        await pushTask(s, meta.parent, before, merged.commit);
      }
      progress(s, "EXECUTE", "MERGED", `task ${id} into ${into.branch}`);
    }
  }
  s.taskWs.delete(id);
  s.engine = {
    ...s.engine,
    tasks: { ...s.engine.tasks, [id]: { ...s.engine.tasks[id]!, status } },
  };
  return { conflict };
}

/**
 * Issue 11 point 7: whether the task's branch, as it is now, has the verifier's pass —
 * asking the verifier now if not. A fail (or a verifier that cannot run) leaves a note on the
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
    if (isModelUnavailable(error)) throw error;
    issues = [`the verifier could not run: ${(error as Error).message}`];
  }
  const where = s.engine.tasks[id]?.parent;
  const into = where === undefined ? s.paths.branch : `task ${where}`;
  const text = `**Task \`${id}\` was dropped, not merged into ${into}:** it reached its merge without a pass on its last commit (left open when its parent ended, or changed since it was verified), and the verifier failed it.\n\n${issues.map((i) => `- ${i}`).join("\n")}`;
  s.engine = enqueue(s.engine, "notice", (seq) => noticeComment({ job: s.n, seq, text }));
  s.notes.push(`task ${id} dropped unmerged: the verifier failed it`);
  progress(s, "VERIFY", "DROP", `${id}: open at its parent's end and failed verification`);
  return false;
}
