// Tasks (seed 000 §6, §10): each dispatched worker gets a worktree on `cfa/<N>-<task>`
// branched from the job branch; a verifier checks it before it is closed; a close merges
// it back with a merge commit, a withdraw drops it unmerged.

import { join } from "node:path";
import { threads } from "../protocol/address.js";
import type { Workspace } from "../ports/workspaces.js";
import { asData } from "./human/sanitize.js";
import { JobRepo } from "./job-repo.js";
import type { Session } from "./session.js";
import { append, progress } from "./session.js";
import { runAgent } from "./agent-run.js";
import { PHASES } from "../skills/phases.js";
import type { TaskMeta } from "./engine-state.js";

export async function provisionTask(
  s: Session,
  task: { id: string; brief: string; files: string[]; parentWs: Workspace },
): Promise<Workspace> {
  const dir = `task-${task.id}`;
  const branch = s.paths.taskBranch(task.id);
  // A worktree left by a turn a crash cut short is not a live task: start it afresh.
  await s.workspaces.drop({ root: join(s.area, dir), branch }).catch(() => undefined);
  const base = await s.repo.head();
  const ws = await s.workspaces.create({
    name: dir,
    branch,
    from: base,
    ...(task.files.length > 0 ? { copy: { from: task.parentWs, files: task.files } } : {}),
  });
  const meta: TaskMeta = {
    thread: threads.dispatch(task.id),
    branch,
    dir,
    base,
    brief: task.brief,
    status: "open",
    verifyFailures: 0,
  };
  s.engine = { ...s.engine, tasks: { ...s.engine.tasks, [task.id]: meta } };
  s.taskWs.set(task.id, ws);
  progress(s, "EXECUTE", "DISPATCH", `task ${task.id} on ${branch}`, true);
  return ws;
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
  if (sha !== null) {
    await s.deps.forge.pushBranch(ws.branch, {
      sha,
      expectedOld: before === s.engine.tasks[id]?.base ? null : before,
    });
  }
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
  const attempt = meta.verifyFailures + 1;
  const address = { agent: "verifier", thread: threads.verify(`${id}-${attempt}`) };
  const intent = s.paths.artifact(PHASES.INTENT.artifact);
  const run = await runAgent(s, {
    address,
    role: "verifier",
    ws,
    readOnly: true,
    system: (await import("./prompts.js")).systemPrompt(s, address, "verifier"),
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
  await new JobRepo(ws.root, undefined, ws.gitDir, { logger: s.deps.logger }).resetToHead();
  // A verifier turn that broke is the close's error (the lead hears it), not a failed task.
  if (run.failure !== null) {
    throw new Error(`cfa/engine: the verifier of task ${id} failed: ${run.failure}`);
  }
  const verdict = run.decisions.verdict ?? {
    verdict: "fail" as const,
    issues: ["the verifier ended without a verdict; close the task again to re-run it"],
    notes: "",
  };
  const updated: TaskMeta = {
    ...s.engine.tasks[id]!,
    lastVerdict: verdict.verdict,
    verifyFailures: meta.verifyFailures + (verdict.verdict === "fail" ? 1 : 0),
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
 * or end of phase) or dropped (a withdraw). A conflict is aborted and reported to the lead.
 */
export async function releaseTask(
  s: Session,
  id: string,
  mode: "merge" | "drop",
): Promise<{ conflict: string[] | null }> {
  const meta = s.engine.tasks[id];
  if (!meta || meta.status !== "open") return { conflict: null };
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
  let status: TaskMeta["status"];
  let conflict: string[] | null = null;
  if (mode === "drop") {
    await s.workspaces.drop(ws);
    await s.deps.forge.deleteBranch(meta.branch);
    status = "dropped";
    progress(s, "EXECUTE", "DROP", `task ${id} dropped, branch deleted`, true);
  } else {
    const merged = await s.repo.exclusive(() =>
      s.workspaces.close(ws, s.jobWs, {
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
      progress(s, "EXECUTE", "MERGED", `task ${id} into ${s.paths.branch}`);
    }
  }
  s.taskWs.delete(id);
  s.engine = { ...s.engine, tasks: { ...s.engine.tasks, [id]: { ...meta, status } } };
  return { conflict };
}
