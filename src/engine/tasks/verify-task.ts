// The verifier (docs/protocol.md#run-visibility): a read-only agent checks a task's branch
// against its brief and INTENT.md before any merge, and its verdict is part of the
// conversation log.

import { threads } from "../../protocol/address.js";
import { asData } from "../../comments/sanitize.js";
import { PHASES } from "../../skills/phases.js";
import { JobRepo } from "../tree/job-repo.js";
import { append, applyChange, progress, type Session } from "../job/session.js";
import { runAgent } from "../turn/agent-run.js";
import { systemPrompt } from "../turn/prompts.js";
import { runtimeOf } from "../turn/wake-runtime.js";
import { taskWorkspace } from "../turn/task-workspace.js";
import { ensureSetUp } from "../setup/ensure-setup.js";
import { evidenceSuffix, keepEvidence } from "../../records/command-evidence.js";

/**
 * The verifier: a read-only agent checks the task's branch against its brief and
 * INTENT.md and returns pass or fail with the issues. Runs inside the lead's `close`.
 */
export async function verifyTask(
  s: Session,
  id: string,
  signal?: AbortSignal,
  /**
   * From a running turn's `close` (not from the wake applying a turn — that would wait on
   * itself): a worker's turn that ended and is being applied commits its files first (issue
   * 15: turns are applied while others run), so the verifier sees them and puts back nothing.
   */
  options: { afterAppliedTurns?: boolean } = {},
): Promise<{ verdict: "pass" | "fail"; issues: string[]; notes: string }> {
  if (!s.engine.tasks[id]) throw new Error(`cfa/engine: no task ${id}`);
  if (options.afterAppliedTurns === true) await runtimeOf(s).appliedOn?.(threads.dispatch(id));
  const meta = s.engine.tasks[id];
  if (!meta) throw new Error(`cfa/engine: no task ${id}`);
  const ws = await taskWorkspace(s, id);
  // A task verified on a new runner has a rebuilt worktree: set up before the verifier runs
  // the tests. A failed setup is the close's error; the job then waits on it.
  if ((await ensureSetUp(s, ws, id)) === "waiting") {
    throw new Error(
      `cfa/engine: task ${id} cannot be verified: the workspace's setup failed and the job waits for the person to fix it`,
    );
  }
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
  // The verdict names the commands its turn ran, as the engine saw them.
  const evidence = keepEvidence(run.decisions.commands);
  applyChange(s, {
    type: "task-verified",
    id,
    verdict: verdict.verdict,
    head,
    run: attempt,
    evidence,
  });
  // The verdict is part of the conversation log, like outcomes and transitions.
  await append(s, [
    {
      type: "verdict",
      task: id,
      by: address,
      verdict: verdict.verdict,
      issues: verdict.issues,
      evidence,
    },
  ]);
  progress(
    s,
    "VERIFY",
    "VERDICT",
    (verdict.verdict === "pass"
      ? `${id} ✓ pass`
      : `${id} ✗ fail — ${verdict.issues.length} issue(s)`) + evidenceSuffix(evidence),
  );
  return verdict;
}
