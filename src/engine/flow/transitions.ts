// Applying a transition and what follows from it. The decision is recorded before its effect
// (docs/protocol.md#recorded-decisions): the transition is appended to the log and committed
// before any of its effects (closing the state's thread, merging or dropping tasks, the next
// lead's spark, comments).

import { conflictNotice, notStartedNotice } from "../fanout/parent-notices.js";
import { oneLine } from "../../comments/one-line.js";
import { isTerminalState, type Action, type State } from "../../protocol/fsm.js";
import { threads } from "../../protocol/address.js";
import type { Content, Effect } from "../../protocol/bus/index.js";
import { transition } from "../../protocol/transition.js";
import { taskOfThread, isLeadThread } from "../job/instances.js";
import { orchestrate, recover } from "./orchestrator.js";
import { listNames, removeFile } from "../tree/files.js";
import { queueComment } from "../job/outbox.js";
import { noticeComment, transitionComment } from "../../comments/record-comments.js";
import {
  applyChange,
  append,
  now,
  persist,
  progress,
  type BusLog,
  type JobRecords,
  type Reporter,
  type Session,
} from "../job/session.js";
import { mergeOrDropTask } from "../tasks/merge-or-drop-task.js";
import { filesOf, queueTask, startTask } from "../tasks/provision-task.js";

export interface TransitionApplied {
  from: State;
  fromEntry: number;
  action: Action;
}

/** Updates the record and appends the audit line; the caller commits, then calls `afterTransition`. */
export async function applyTransition(
  s: JobRecords & Reporter & BusLog,
  action: Action,
  by: string,
  reason: string,
): Promise<TransitionApplied> {
  const from = s.job.state;
  const fromEntry = s.job.entry;
  s.job = transition(s.job, action, { at: now(s), by, reason });
  const entry = s.job.history.at(-1)!;
  await append(s, [{ type: "transition", entry }]);
  queueComment(s, "transition", (seq) =>
    transitionComment({ job: s.n, seq, from, action, to: entry.to, by, reason }),
  );
  progress(s, entry.to, action, `${from} → ${entry.to}: ${oneLine(reason, 160)}`);
  return { from, fromEntry, action };
}

/** The effects of a committed transition. */
export async function afterTransition(s: Session, applied: TransitionApplied): Promise<void> {
  const to = s.job.state;
  if (to === "WITHDRAWN" || to === "FAILURE") {
    // Terminate on the job thread cascades; every task is dropped unmerged
    // (docs/protocol.md#withdrawal).
    if (!s.soup.isTerminated(threads.job())) {
      const step = s.soup.terminate(threads.job(), "drop");
      await append(s, step.events);
      await handleEffects(s, step.effects);
    }
  } else {
    // The state's thread closes; dispatches left open merge at end of phase
    // (docs/protocol.md#workspaces).
    const thread = threads.state(applied.from, applied.fromEntry);
    if (!s.soup.isTerminated(thread) && s.soup.parentOf(thread) !== null) {
      const step = await orchestrate(
        s,
        { kind: "observe", text: `${applied.action}: close ${thread}` },
        [{ kind: "terminate", thread }],
      );
      await handleEffects(s, step.effects);
    }
  }
  if (isTerminalState(to)) await finalize(s);
  applyChange(s, { type: "transitions-settled", through: s.job.history.length });
  await persist(s, `cfa #${s.n}: ${applied.from} → ${to}: close ${applied.from.toLowerCase()}`);
}

async function finalize(s: Session): Promise<void> {
  const last = s.job.history.at(-1);
  if (s.job.state === "DONE") {
    if (s.config.auditTrail === "drop") await dropAuditTrail(s);
    if (s.engine.pr !== null) await s.deps.forge.markReadyForReview(s.engine.pr);
    return;
  }
  // The checks complete on the wake's last commit (checks.ts).
  if (s.job.state === "WITHDRAWN" && s.engine.pr !== null)
    await s.deps.forge.closePullRequest(s.engine.pr);
  queueComment(s, "notice", (seq) =>
    noticeComment({
      job: s.n,
      seq,
      text:
        s.job.state === "WITHDRAWN"
          ? `**Withdrawn.** Every task was stopped and its branch deleted unmerged; the pull request is closed. The record stays on \`${s.paths.branch}\`.`
          : `**Failed:** ${last?.reason ?? "the job could not recover"}. The record stays on \`${s.paths.branch}\`; open a new issue to try again.`,
    }),
  );
}

/**
 * `auditTrail: drop` (docs/configuration.md): a last commit before the pull request leaves draft
 * takes the job's records out of the tree, so merging it brings only the work to the default
 * branch; they stay in the job branch's history. state.json stays: it is what tells a later wake
 * that the job is DONE.
 */
async function dropAuditTrail(s: Session): Promise<void> {
  // Through the engine's file helpers: never through a link, and known to its records.
  for (const entry of await listNames(s.jobWs.root, s.paths.dir)) {
    if (entry !== "state.json") await removeFile(s.jobWs.root, `${s.paths.dir}/${entry}`);
  }
  await persist(
    s,
    `cfa #${s.n}: take the job's records out of the tree (auditTrail: drop); they stay in ${s.paths.branch}'s history`,
  );
}

/**
 * At [spark] / [unblock], the task's workspace (docs/protocol.md#workspaces), from its parent's
 * branch as it is now. One that cannot be made is a hard error at spark time: the task ends
 * unmerged and its parent hears why.
 */
export async function startTaskAt(
  s: Session,
  task: string,
  parent: string,
  first: Content,
): Promise<void> {
  const started = await startTask(s, {
    id: task,
    brief: first.text,
    files: filesOf(first),
    parent: taskOfThread(parent) ?? undefined,
  });
  if (started.ok) return;
  const thread = threads.dispatch(task);
  if (!s.soup.isTerminated(thread)) {
    const step = s.soup.terminate(thread, "drop");
    await append(s, step.events);
    await handleEffects(s, step.effects);
  }
  await recover(s, parent, notStartedNotice(task, started.error));
}

/** Effects of the rules (releasing workspaces, refusals) that are the engine's to run. */
export async function handleEffects(s: Session, effects: readonly Effect[]): Promise<void> {
  for (const effect of effects) {
    switch (effect.kind) {
      case "release": {
        const task = taskOfThread(effect.a.thread);
        if (task === null) break;
        const { conflict } = await mergeOrDropTask(s, task, effect.mode);
        // The parent hears of a conflict: the state's lead, or the task above (nested).
        if (conflict && effect.parent && effect.parent !== threads.job()) {
          const into = isLeadThread(effect.parent) ? "the job branch" : "your branch";
          await recover(
            s,
            effect.parent,
            conflictNotice(task, into, conflict, s.paths.taskBranch(task)),
          );
        }
        break;
      }
      case "refused":
        s.deps.logger.warn(`cfa #${s.n}: a send was refused: ${effect.rejection.reason}`);
        break;
      case "spark": {
        progress(s, effect.a.agent, "SPARK", `${effect.a.agent}@${effect.a.thread}`, true);
        // A spark installs the instance's surface, once: a task's workspace, now.
        const task = taskOfThread(effect.a.thread);
        const meta = task === null ? undefined : s.engine.tasks[task];
        if (task !== null && (meta === undefined || meta.status === "queued")) {
          await startTaskAt(s, task, effect.parent, effect.first);
        }
        break;
      }
      case "blocked": {
        // [send-block] (past the fan-out cap): recorded as queued; its workspace comes at
        // [unblock].
        const task = taskOfThread(effect.to.thread);
        if (task !== null && s.engine.tasks[task] === undefined) {
          queueTask(s, {
            id: task,
            brief: effect.content.text,
            files: filesOf(effect.content),
            parent: taskOfThread(effect.from.thread) ?? undefined,
          });
        }
        break;
      }
      case "blocked-dropped": {
        // [term-blocked]: it never started, so it has no branch to drop.
        const task = taskOfThread(effect.to.thread);
        const meta = task === null ? undefined : s.engine.tasks[task];
        if (task !== null && meta?.status === "queued") {
          applyChange(s, { type: "task-status-set", id: task, status: "dropped" });
          progress(s, "EXECUTE", "DROP", `task ${task} never started`, true);
        }
        break;
      }
      case "answered":
      case "cancelled":
      case "proxy-turn":
      case "ask-human":
        // Read back from the soup each round: pending escalations survive a crash, effects do not.
        break;
      default: {
        const never: never = effect;
        throw new Error(`cfa/engine: unhandled effect ${JSON.stringify(never)}`);
      }
    }
  }
}
