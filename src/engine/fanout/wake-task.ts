// A task's own run (issue 15 point 6): the task's worker runs its turns here, on the task's
// branch `cfa/<N>-<task>`, in a worktree of the run's fresh clone, while the lead's run keeps
// everything else. What this run may write is the task branch alone, and it is built so:
// - its session's forge refuses every write (task-run-forge.ts): no comment, reaction, check,
//   pull request, branch push or deletion through it; the job worktree it opens is read, and
//   whatever the engine commits there locally is never pushed;
// - no response journal is opened (the journal's branch is the lead's), no bus event or
//   state leaves the runner: the soup is the job branch's, advanced here only to know what is
//   left in the worker's mailbox;
// - the worker may not dispatch sub-tasks (runtime `taskRun` hooks): the tool says so and the
//   agent carries on; a question it asks ends its turn, and the record carries it to the lead,
//   whose run poses it as the worker's [ask-step] (deliver-folded-turn.ts): its answer is the
//   worker's next mail, taken by the task's next run (dispatch-on-mail.ts);
// - each model call's cost is written to the turn's record at once (TaskTurnWriter, a leased
//   push), after the allowance the ledger gives the task was checked before the call; at the
//   turn's end the code is committed on the task branch with the worker's transcript and the
//   record says what the turn sent its parent and whether the task is done (its mailbox
//   empty): the lead folds it at its next wake (fold-at-wake.ts).
// The run stops when the worker has no mail left, at the run's time margin or cancellation
// (`stop`, job/wake-stop.ts: the turn in flight ends at its next call, its record saying only
// what it cost), or when its lease is refused (the lead dispatched a newer epoch: stale).

import { addressKey, type Address } from "../../protocol/address.js";
import type { Payload } from "../../protocol/bus/index.js";
import type { Message } from "../../ports/model.js";
import type { Question } from "../../agents/turn-contract.js";
import { pendingAsk } from "../../agents/loop/index.js";
import type { CfaConfig } from "../../config/index.js";
import { commitDateEnv, gitClient } from "../../git/git-client.js";
import {
  MAX_TURN_MS,
  TASK_TRANSCRIPT_PATH,
  type TaskTurnRecord,
} from "../../records/task-turn-record.js";
import type { EngineDeps } from "../job/engine-deps.js";
import { loadConfig } from "../job/load-config.js";
import { openSession, type Session } from "../job/session.js";
import { foldedTranscript } from "./folded-transcript.js";
import { runtimeOf } from "../job/wake-runtime.js";
import { stopOf } from "../job/wake-stop.js";
import { takeWakeLock } from "../job/wake-lock.js";
import { runSetup } from "../setup/run-setup.js";
import { isSetUp, markSetUp, setupDigest } from "../setup/setup-marker.js";
import { taskWorkspace } from "../tasks/task-workspace.js";
import { BOT_IDENTITY, JobRepo } from "../tree/job-repo.js";
import { readText, writeText } from "../tree/files.js";
import { runInstanceTurn } from "../turn/run-instance-turn.js";
import { closeIdleLineProcesses } from "../../git/git-line-process.js";
import type { RunGit } from "./leased-refs.js";
import { readTaskRunStanding } from "./read-task-run-standing.js";
import { totalCharged } from "./fold-task-records.js";
import { readTaskTurnRecords } from "./task-turn-files.js";
import { taskRunForge } from "./task-run-forge.js";
import { StaleTaskRunError, TaskTurnWriter } from "./task-turn-writer.js";

export interface TaskWakeOptions {
  job: number;
  task: string;
  epoch: number;
  /** This Actions run's id (`GITHUB_RUN_ID`), written in every record. */
  runId: string;
  /** The clone's remote the task branch is pushed to (default `origin`). */
  remote?: string;
  /** Environment for git's pushes (the token as a header, as the worker's pushes carry it). */
  pushEnv?: () => Promise<Record<string, string>>;
  /** The run's clean stop: its time margin or a cancellation (job/wake-stop.ts). */
  stop?: AbortSignal;
  config?: CfaConfig;
}

export interface TaskWakeSummary {
  /** Why the run did no (more) work, or null when the worker's mailbox emptied. */
  stopped: string | null;
  /** Turns this run ended and recorded. */
  turns: number;
  /** Whether its last recorded turn said the task is done. */
  done: boolean;
}

/** Why a worker in a task run cannot use these tools, as the tool answers the agent. */
const REFUSES = {
  dispatch:
    "sub-tasks cannot be dispatched from a task's own run (execute.runners): do this work in your task",
};

export async function wakeTask(o: TaskWakeOptions, deps: EngineDeps): Promise<TaskWakeSummary> {
  const standing = await readTaskRunStanding(deps.repoDir, o.job, o.task, o.epoch);
  if (!standing.ok) return { stopped: standing.reason, turns: 0, done: false };
  const forge = taskRunForge(deps.forge, o.task);
  // Interventions are read by the lead's run; nothing here looks at comments mid-turn.
  const runDeps: EngineDeps = {
    ...deps,
    forge,
    commandPollMs: Number.POSITIVE_INFINITY,
  };
  delete runDeps.taskRuns;
  const config = await loadConfig(o.job, runDeps, o.config);
  if (!config.ok) return { stopped: config.note, turns: 0, done: false };
  const locked = await takeWakeLock(deps.workRoot, o.job);
  if (locked.kind === "busy")
    return { stopped: `another process works on job #${o.job} here`, turns: 0, done: false };
  try {
    const s = await openSession(o.job, runDeps, config.config);
    return await runWorker(s, o, standing.ledger);
  } finally {
    closeIdleLineProcesses();
    await locked.lock.release();
  }
}

async function runWorker(
  s: Session,
  o: TaskWakeOptions,
  ledger: Parameters<typeof totalCharged>[0],
): Promise<TaskWakeSummary> {
  const meta = s.engine.tasks[o.task]!;
  const worker: Address = { agent: "worker", thread: meta.thread };
  if (s.soup.stateOf(worker) !== "Idle" || s.soup.mailbox(worker).length === 0)
    return { stopped: `task ${o.task}'s worker has no message waiting`, turns: 0, done: false };
  const ws = await taskWorkspace(s, o.task);
  const remote = o.remote ?? "origin";
  const git: RunGit = async (args) => {
    const env = { ...(await o.pushEnv?.()), ...commitDateEnv(s.deps.clock.now()) };
    return gitClient({
      baseDir: ws.root,
      gitDir: ws.gitDir,
      config: [`user.name=${BOT_IDENTITY.name}`, `user.email=${BOT_IDENTITY.email}`],
      env: () => env,
    }).raw(args);
  };
  const head = (await git(["rev-parse", "--verify", "HEAD"])).trim();
  // A re-run of this epoch's run (GitHub's "Re-run jobs" keeps the inputs) would take the
  // worker's messages a second time: only the first run of an epoch works.
  const records = (await readTaskTurnRecords(git, head)).records;
  const mine = records.filter((r) => r.epoch === o.epoch);
  if (mine.length > 0)
    return { stopped: `epoch ${o.epoch} of task ${o.task} already ran`, turns: 0, done: false };

  const writer = new TaskTurnWriter({
    git,
    writeFile: (path, text) => writeText(ws.root, path, text),
    remote,
    ref: `refs/heads/${meta.branch}`,
    head,
    who: { job: o.job, task: o.task, epoch: o.epoch, run: o.runId },
  });
  // The worker's conversation so far: its earlier runs' copy on the task branch through the
  // last turn the lead folded (folded-transcript.ts), if any, else the job branch's (empty
  // for a task that never ran in the lead's run).
  const transcriptFile = s.paths.instance(worker);
  const carried = await foldedTranscript(git, records, ledger);
  if (carried !== null) await writeText(s.jobWs.root, transcriptFile, carried);

  const rt = runtimeOf(s);
  // Comments are the lead's run's to read and act on; this run never looks mid-turn.
  rt.lastPoll = Number.POSITIVE_INFINITY;
  const before = totalCharged(ledger);
  let spent = 0;
  let turn: Pick<TaskTurnRecord, "seq" | "calls" | "costUsd" | "timing"> = {
    seq: ledger.folded + 1,
    calls: 0,
    costUsd: 0,
  };
  rt.taskRun = {
    beforeCall: () =>
      before + spent >= ledger.allowanceUsd
        ? `task ${o.task}'s allowance of $${ledger.allowanceUsd.toFixed(2)} is spent`
        : null,
    charged: async (costUsd) => {
      spent += costUsd;
      turn = { ...turn, calls: turn.calls + 1, costUsd: turn.costUsd + costUsd };
      await writer.called(turn);
    },
    refuses: REFUSES,
  };
  const hard = new AbortController();
  const onStop = () => {
    const stop = stopOf(o.stop);
    if (stop === null) return;
    rt.stopping = `the run stops early: ${stop.reason}`;
    if (stop.now) hard.abort(new Error(rt.stopping));
  };
  o.stop?.addEventListener("abort", onStop, { once: true });
  onStop();

  let turns = 0;
  let done = false;
  try {
    while (s.soup.stateOf(worker) === "Idle" && s.soup.mailbox(worker).length > 0) {
      if (rt.stopping !== null) return { stopped: rt.stopping, turns, done };
      await setUp(s, o.task, ws);
      const ran = await runInstanceTurn(s, worker, hard.signal);
      if (rt.stopping !== null) return { stopped: rt.stopping, turns, done };
      if (ran.error !== null || ran.run === null) throw ran.error ?? new Error("no turn ran");
      // The soup here is only this run's view of the worker's mailbox: never persisted.
      s.soup.endTurn(worker, { rule: "nosend-step" });
      await ran.run.record();
      // Measured as the lead's run measures a task turn it applies (apply-turn.ts).
      turn = { ...turn, timing: timingOf(ran.run) };
      const repo = new JobRepo(ws.root, () => s.deps.clock.now(), ws.gitDir, {
        logger: s.deps.logger,
        maxFileBytes: s.repo.maxFileBytes,
      });
      await repo.commit(`cfa #${o.job}: ${addressKey(worker)} turn ${turn.seq}`);
      // The transcript apart, after: the tree's commit keeps what is under `.cfa/` as the
      // branch had it (an agent's writes there are put back).
      const transcript = (await readText(s.jobWs.root, transcriptFile)) ?? "";
      await writeText(ws.root, TASK_TRANSCRIPT_PATH, transcript);
      await git(["add", "--force", "--", TASK_TRANSCRIPT_PATH]);
      if ((await git(["status", "--porcelain", "--", TASK_TRANSCRIPT_PATH])).trim() !== "")
        await git([
          "commit",
          "--quiet",
          "--no-verify",
          "--no-gpg-sign",
          "-m",
          `cfa #${o.job}: ${addressKey(worker)} transcript through turn ${turn.seq}`,
          "--",
          TASK_TRANSCRIPT_PATH,
        ]);
      const code = (await git(["rev-parse", "--verify", "HEAD"])).trim();
      const sends = sendsOf(ran.run.decisions.pending, s);
      const asked = askOf(ran.run, s, worker);
      // A worker that asked waits for its answer, which only the lead's run can give.
      done = asked === null && s.soup.mailbox(worker).length === 0;
      await writer.ended({ ...turn, sends: asked ? [...sends, asked] : sends, done }, code);
      turns += 1;
      turn = { seq: turn.seq + 1, calls: 0, costUsd: 0 };
      if (asked !== null) break;
    }
    return { stopped: null, turns, done };
  } catch (error) {
    if (error instanceof StaleTaskRunError) return { stopped: error.message, turns, done };
    throw error;
  } finally {
    o.stop?.removeEventListener("abort", onStop);
    rt.taskRun = null;
  }
}

/** A turn's time and its commands', as alone on the runner (what sharing it added, apart). */
function timingOf(run: {
  wallMs: number;
  decisions: { commandMs: number; contendedMs: number };
}): NonNullable<TaskTurnRecord["timing"]> {
  const turnMs = Math.min(MAX_TURN_MS, Math.max(0, run.wallMs - run.decisions.contendedMs));
  return { turnMs, commandMs: Math.min(turnMs, Math.max(0, run.decisions.commandMs)) };
}

/** The turn's messages to its parent, as its record carries them (the lead checks them again). */
function sendsOf(pending: readonly Payload[], s: Session): TaskTurnRecord["sends"] {
  const sends: TaskTurnRecord["sends"] = [];
  for (const p of pending) {
    if (p.kind !== "deliver" || p.content.kind !== "reply") {
      s.deps.logger.warn(`cfa #${s.n}: a task run carries only replies; a ${p.kind} is dropped`);
      continue;
    }
    sends.push({ to: addressKey(p.to), kind: "reply", text: p.content.text });
  }
  return sends;
}

/**
 * The turn's question as its record carries it: to the worker's parent (the instance it
 * answers to; the lead's fold refuses any other), with the ask_question call its answer
 * resolves. A gate is a phase lead's alone (the host refused it already).
 */
function askOf(
  run: { decisions: { ask: { question: Question } | null }; result: { messages: Message[] } },
  s: Session,
  worker: Address,
): TaskTurnRecord["sends"][number] | null {
  const ask = run.decisions.ask;
  if (ask === null) return null;
  const parentThread = s.soup.parentOf(worker.thread);
  const parent = s.soup.instances().find((a) => a.thread === parentThread);
  if (parent === undefined) return null;
  const toolUseId = pendingAsk(run.result.messages)?.id;
  return {
    to: addressKey(parent),
    kind: "ask",
    text: ask.question.text,
    ...(toolUseId !== undefined && /^[A-Za-z0-9_-]{1,128}$/.test(toolUseId) ? { toolUseId } : {}),
  };
}

/**
 * The task's worktree set up before its worker's first turn here (issue 20). Run without the
 * lead's bookkeeping, which would commit the job's state: a failed setup fails the run, and
 * the lead's watch dispatches the task again or takes it over.
 */
async function setUp(s: Session, task: string, ws: Awaited<ReturnType<typeof taskWorkspace>>) {
  const setup = s.config.setup;
  if (setup.commands.length === 0) return;
  const digest = setupDigest(setup);
  const name = `task-run-${task}`;
  if (await isSetUp(s.area, name, ws.root, digest)) return;
  const outcome = await runSetup(s, ws, `task ${task}`);
  if (outcome.failed !== null)
    throw new Error(
      `cfa/engine: task ${task}'s setup failed at \`${outcome.failed.command}\` (exit ${outcome.failed.exitCode ?? "killed"})`,
    );
  await markSetUp(s.area, name, ws.root, digest);
}
