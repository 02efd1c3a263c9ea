// A task's own run (its commands get a runner to themselves): the task's worker runs its turns
// here, on the task's branch `cfa/<N>-<task>`, in a worktree of the run's fresh clone, while the
// lead's run keeps everything else. What this run may write is the task branch alone, and it is
// built so:
// - its session's forge refuses every write (task-run-forge.ts): no comment, reaction, check,
//   pull request, branch push or deletion through it; the job worktree it opens is read, and
//   whatever the engine commits there locally is never pushed;
// - no response journal is opened (the journal's branch is the lead's), no bus event or
//   state leaves the runner: the soup is the job branch's, advanced here only to know what is
//   left in the worker's mailbox;
// - its sub-tasks run here, on this run's own bus (the soup, never persisted): provisioned
//   from the task's worktree, verified and merged into it at the worker's `close`, their
//   branches local to the run (never pushed: task-workspace.ts pushTask). The lead folds the
//   worker's turn on one of its messages and every turn of the subtree it led to as one turn
//   of the worker's: one record, whose sends are the worker's to its parent, whose cost is the
//   whole subtree's (sub-tasks' and verifiers' calls through the same charge hook). A run that
//   stops inside it leaves that record unended: the lead's message stays in the worker's
//   mailbox for the next run, which starts the subtree again;
// - a question it asks ends its turn (never from a sub-task, nor with a sub-task open: those
//   exist in this run alone), and the record carries it to the lead,
//   whose run poses it as the worker's [ask-step] (deliver-folded-turn.ts): its answer is the
//   worker's next mail, taken by the task's next run (dispatch-on-mail.ts);
// - each model call's cost is written to the turn's record at once (TaskTurnWriter, a leased
//   push), after the allowance the ledger gives the task was checked before the call; at the
//   turn's end the code is committed on the task branch with the worker's transcript and the
//   record says what the turn sent its parent and whether the task is done (its mailbox
//   empty, no sub-task open): the lead folds it at its next wake (fold-at-wake.ts).
// The run stops when the worker has no mail left and its subtree is quiet, at the run's time
// margin or cancellation (`stop`, job/wake-stop.ts: the turn in flight ends at its next call,
// its record saying only what it cost), or when its lease is refused (the lead dispatched a
// newer epoch: stale).

import { addressKey, type Address } from "../protocol/address.js";
import type { Content, Payload } from "../protocol/bus/index.js";
import type { Message } from "../ports/model.js";
import type { Question } from "../agents/turn-contract.js";
import { pendingAsk } from "../agents/loop/index.js";
import type { CfaConfig } from "../config/index.js";
import { commitDateEnv, gitClient } from "../git/git-client.js";
import {
  MAX_TURN_MS,
  TASK_TRANSCRIPT_PATH,
  type SubtreeMail,
  type TaskTurnRecord,
} from "../records/task-turn-record.js";
import type { TaskLedgerRecord } from "../records/engine-state.js";
import type { EngineDeps } from "./job/engine-deps.js";
import { loadConfig } from "./job/load-config.js";
import { openSession, type Session } from "./job/session.js";
import { foldedTranscript } from "./fanout/folded-transcript.js";
import { runtimeOf, type TaskRunHooks } from "./turn/wake-runtime.js";
import { handleEffects } from "./flow/transitions.js";
import { pollInterventions } from "./people/poll-interventions.js";
import { recover } from "./flow/orchestrator.js";
import { taskOfThread } from "./job/instances.js";
import { stopOf } from "./job/wake-stop.js";
import { takeWakeLock } from "./job/wake-lock.js";
import { runSetup } from "./setup/run-setup.js";
import { isSetUp, markSetUp, setupDigest } from "./setup/setup-marker.js";
import { taskWorkspace } from "./turn/task-workspace.js";
import { BOT_IDENTITY, JobRepo } from "./tree/job-repo.js";
import { readText, writeText } from "./tree/files.js";
import { runInstanceTurn } from "./apply/run-instance-turn.js";
import { closeIdleLineProcesses } from "../git/git-line-process.js";
import { commitStaged, type RunGit } from "./fanout/leased-refs.js";
import { readTaskRunStanding } from "./fanout/read-task-run-standing.js";
import { totalCharged } from "./fanout/fold-task-records.js";
import { readTaskTurnRecords } from "./fanout/task-turn-files.js";
import { backToFoldedTurn } from "./fanout/back-to-folded-turn.js";
import { taskRunForge } from "./fanout/task-run-forge.js";
import {
  droppedNotice,
  engineNoticeAbout,
  mailOpening,
  quietNotice,
} from "./fanout/subtree-mail.js";
import { redact } from "../secrets/index.js";
import { StaleTaskRunError, TaskTurnWriter } from "./fanout/task-turn-writer.js";

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

/**
 * Why an instance of the run's subtree cannot use a tool here. A question reaches a person
 * only through the lead's run, and it ends this run's turn: never from a sub-task (its parent
 * is in this run), nor while the worker's sub-tasks are open (they exist in this run alone).
 */
function refusesIn(s: Session, task: string, worker: Address): TaskRunHooks["refuses"] {
  return (tool, a, pending) => {
    if (tool !== "ask") return undefined;
    if (a.thread !== worker.thread)
      return "a sub-task cannot ask a question in its parent's run: reply to your parent with what you need";
    if (
      openSubtasks(s, task).length > 0 ||
      pending.some((p) => p.kind === "deliver" && p.content.kind === "task")
    )
      return "your sub-tasks are open: close them before you ask a question (a question ends this run)";
    return undefined;
  };
}

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
    // As in the lead's run, its turns look at people's commands between model calls.
    runtimeOf(s).poll = () => pollInterventions(s);
    return await runWorker(s, o, standing.ledger);
  } finally {
    closeIdleLineProcesses();
    await locked.lock.release();
  }
}

async function runWorker(
  s: Session,
  o: TaskWakeOptions,
  ledger: TaskLedgerRecord,
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
  const { records } = await readTaskTurnRecords(git, head);
  if (records.some((r) => r.epoch === o.epoch))
    return { stopped: `epoch ${o.epoch} of task ${o.task} already ran`, turns: 0, done: false };
  const back = await backToFoldedTurn(git, { ...o, records, ledger, base: meta.base });
  if (back !== null)
    s.deps.logger.info(
      `cfa #${o.job}: task ${o.task} starts again from turn ${ledger.folded}'s tree (${back.slice(0, 12)}): a run stopped inside turn ${ledger.folded + 1}`,
    );

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
    refuses: refusesIn(s, o.task, worker),
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

  // The messages the lead's bus holds for the worker: each one the run takes starts a turn
  // the lead folds as one turn of the worker's (deliver-folded-turn.ts). Whatever arrives
  // after them is this run's own mail (its sub-tasks' replies), taken inside that turn.
  let leadMail = s.soup.mailbox(worker).length;
  let turns = 0;
  let done = false;
  try {
    while (leadMail > 0 && s.soup.stateOf(worker) === "Idle") {
      if (rt.stopping !== null) return { stopped: rt.stopping, turns, done };
      const sends: TaskTurnRecord["sends"] = [];
      let asked: TaskTurnRecord["sends"][number] | null = null;
      // The worker's turn on the lead's message, then every turn of its subtree it leads to:
      // its sub-tasks' turns and its own on their mail, until the subtree is quiet.
      let next: Address | null = worker;
      let quiet = 0;
      let timing: TaskTurnRecord["timing"];
      let workerTurns = 0;
      // What the worker's later turns open on, and the sub-tasks it dispatched: the lead ties
      // each later turn to them (subtree-mail.ts). `notices`: the run's own, as delivered.
      const mail: SubtreeMail[] = [];
      const subtasks: string[] = [];
      const notices: SubtreeMail[] = [];
      leadMail -= 1;
      while (next !== null) {
        if (rt.stopping !== null) return { stopped: rt.stopping, turns, done };
        // Each worktree of the subtree set up before its worker's first turn, as the lead's
        // run sets up each task's (a sub-task's was never set up here).
        await setUp(s, taskOfThread(next.thread) ?? o.task);
        const ran = await runInstanceTurn(s, next, hard.signal);
        if (rt.stopping !== null) return { stopped: rt.stopping, turns, done };
        if (ran.error !== null || ran.run === null) throw ran.error ?? new Error("no turn ran");
        // A turn that broke (a model call refused, a tool that threw, its deadline passed) is
        // a state-level failure, which only the lead's run can count and answer (apply-turn.ts
        // judgeTurn): recorded as ended, it would pass for a finished task — its half work
        // adopted and verified. The run fails instead; its record stays unended, and the
        // task's next run (or the lead's, after a second death) takes the turn again from the
        // last folded one, what its calls cost already charged.
        if (ran.run.failure !== null)
          throw new Error(`${addressKey(next)}'s turn broke: ${ran.run.failure}`);
        const isWorker = next.thread === worker.thread;
        if (isWorker) workerTurns += 1;
        if (isWorker && workerTurns > 1) mail.push(...mailOf(s, ran.woke.message, notices));
        const pending = ran.run.decisions.pending;
        if (isWorker) sends.push(...sendsOf(pending, s, o.task));
        if (isWorker) subtasks.push(...dispatchesOf(pending));
        // The soup here is this run's bus for the subtree: never persisted. Its effects are
        // run here (a sub-task provisioned from this task's worktree, one closed verified and
        // merged into it); a send out of the subtree is the record's, for the lead to fold.
        const ended = s.soup.endTurn(
          next,
          pending.length > 0 ? { rule: "send-step", payloads: pending } : { rule: "nosend-step" },
        );
        await ran.run.record();
        // Measured as the lead's run measures a task turn it applies (apply-turn.ts): the
        // record's turn is every turn of the subtree it took; said once it ended.
        timing = addTiming(timing, timingOf(ran.run));
        const sub = isWorker ? o.task : taskOfThread(next.thread);
        if (sub !== null) await commitCode(s, sub, `cfa #${o.job}: ${addressKey(next)} turn`);
        await handleEffects(s, ended.effects);
        if (isWorker) {
          asked = askOf(ran.run, s, worker);
          if (asked !== null) break;
        }
        next = nextInRun(s, o.task, worker, leadMail);
        if (next === null && leadMail === 0)
          next = await quietSubtree(s, o.task, worker, quiet++, notices);
      }
      // The transcript apart, after: the tree's commit keeps what is under `.cfa/` as the
      // branch had it (an agent's writes there are put back).
      const transcript = (await readText(s.jobWs.root, transcriptFile)) ?? "";
      await writeText(ws.root, TASK_TRANSCRIPT_PATH, transcript);
      await git(["add", "--force", "--", TASK_TRANSCRIPT_PATH]);
      if ((await git(["status", "--porcelain", "--", TASK_TRANSCRIPT_PATH])).trim() !== "")
        await commitStaged(
          git,
          `cfa #${o.job}: ${addressKey(worker)} transcript through turn ${turn.seq}`,
          [TASK_TRANSCRIPT_PATH],
        );
      const code = (await git(["rev-parse", "--verify", "HEAD"])).trim();
      // A worker that asked waits for its answer, which only the lead's run can give; one
      // with a sub-task still open is not done (the subtree ends first).
      done =
        asked === null &&
        s.soup.mailbox(worker).length === 0 &&
        openSubtasks(s, o.task).length === 0;
      await writer.ended(
        {
          ...turn,
          ...(timing ? { timing } : {}),
          ...(workerTurns > 1 ? { workerTurns, mail } : {}),
          ...(subtasks.length > 0 ? { subtasks } : {}),
          sends: asked ? [...sends, asked] : sends,
          done,
        },
        code,
      );
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

/** A turn's code committed on its task's branch in this run (pushed only as the task's). */
async function commitCode(s: Session, task: string, message: string): Promise<void> {
  const ws = await taskWorkspace(s, task);
  const repo = new JobRepo(ws.root, () => s.deps.clock.now(), ws.gitDir, {
    logger: s.deps.logger,
    maxFileBytes: s.repo.maxFileBytes,
  });
  await repo.commit(message);
}

/**
 * The subtree went quiet with sub-tasks open: nobody has mail, so nothing would ever close
 * them, and they exist in this run alone — a record that ended here would leave the worker
 * waiting on replies no run can send. The worker hears of it once; still quiet, the open
 * sub-tasks are dropped unmerged, as a withdrawal drops them (docs/protocol.md#workspaces), and the
 * worker told to do their work itself. Returns the worker when it has that message, else null (the
 * turn ends).
 */
async function quietSubtree(
  s: Session,
  task: string,
  worker: Address,
  times: number,
  /** The notices delivered, for the record (subtree-mail.ts renders them again). */
  notices: SubtreeMail[],
): Promise<Address | null> {
  const open = openSubtasks(s, task);
  if (open.length === 0 || times > 1 || s.soup.stateOf(worker) !== "Idle") return null;
  if (times === 0) {
    await recover(s, worker, quietNotice(open));
    notices.push({ kind: "notice", notice: "quiet", tasks: open });
  } else {
    for (const id of open) {
      const thread = s.engine.tasks[id]!.thread;
      if (s.soup.isTerminated(thread)) continue;
      const step = s.soup.terminate(thread, "drop");
      await handleEffects(s, step.effects);
    }
    await recover(s, worker, droppedNotice(open));
    notices.push({ kind: "notice", notice: "dropped", tasks: open });
  }
  return s.soup.mailbox(worker).length > 0 ? worker : null;
}

/** Whether `thread` is the task's or one of its sub-tasks' (this run's subtree). */
function inSubtree(s: Session, task: string, thread: string): boolean {
  let id = taskOfThread(thread);
  for (let depth = 0; id !== null && depth < 64; depth++) {
    if (id === task) return true;
    id = s.engine.tasks[id]?.parent ?? null;
  }
  return false;
}

/** The task's sub-tasks, at any depth, that are open or queued in this run. */
function openSubtasks(s: Session, task: string): string[] {
  return Object.entries(s.engine.tasks)
    .filter(([id, m]) => id !== task && (m.status === "open" || m.status === "queued"))
    .filter(([, m]) => inSubtree(s, task, m.thread))
    .map(([id]) => id);
}

/**
 * The next turn of the subtree: the worker's on this run's own mail (never on the lead's: each
 * of those starts a record of its own), else an open sub-task's worker with mail, first
 * dispatched first; null when the subtree is quiet.
 */
function nextInRun(s: Session, task: string, worker: Address, leadMail: number): Address | null {
  const ready = (a: Address) => s.soup.stateOf(a) === "Idle" && s.soup.mailbox(a).length > 0;
  if (leadMail === 0 && ready(worker)) return worker;
  for (const id of openSubtasks(s, task)) {
    const a = { agent: "worker", thread: s.engine.tasks[id]!.thread };
    if (s.engine.tasks[id]!.status === "open" && ready(a)) return a;
  }
  return null;
}

/**
 * What a later worker turn opened on, for its record: a sub-task's reply, the engine's word
 * about a sub-task, or the run's notice (the oldest not yet taken). Anything else is none of
 * the run's mail: left out, so the lead refuses the record (its turns outnumber its mail)
 * rather than take a turn tied to nothing.
 */
function mailOf(s: Session, m: Content, notices: SubtreeMail[]): SubtreeMail[] {
  const from = m.from === undefined ? null : taskOfThread(m.from.thread);
  // As the worker's transcript holds it (incomingText redacts what it reads): the lead finds
  // it there, and no secret of this process reaches the pushed record through it.
  if (m.kind === "reply" && from !== null && m.from?.agent === "worker")
    return [{ kind: "reply", from, text: redact(m.text, "a message to an agent") }];
  if (m.kind === "recovery") {
    const text = redact(m.text, "a message to an agent");
    const about = engineNoticeAbout(m.text);
    if (about !== null) return [{ kind: "engine", about, text }];
    const notice = notices[0] !== undefined && mailOpening(notices[0]) === m.text;
    if (notice) return [notices.shift()!];
  }
  s.deps.logger.warn(`cfa #${s.n}: a task run's worker turn opened on a ${m.kind}: not its mail`);
  return [];
}

/** The sub-tasks a worker's turn dispatched (each a task message to a new thread). */
function dispatchesOf(pending: readonly Payload[]): string[] {
  const ids: string[] = [];
  for (const p of pending) {
    const id = p.kind === "deliver" && p.content.kind === "task" ? taskOfThread(p.to.thread) : null;
    if (id !== null) ids.push(id);
  }
  return ids;
}

/** A turn's time and its commands', as alone on the runner (what sharing it added, apart). */
function timingOf(run: {
  wallMs: number;
  decisions: { commandMs: number; contendedMs: number };
}): NonNullable<TaskTurnRecord["timing"]> {
  const turnMs = Math.min(MAX_TURN_MS, Math.max(0, run.wallMs - run.decisions.contendedMs));
  return { turnMs, commandMs: Math.min(turnMs, Math.max(0, run.decisions.commandMs)) };
}

/** Two timings as one: the subtree's turns a record carries, bounded as one turn's. */
function addTiming(
  a: TaskTurnRecord["timing"],
  b: NonNullable<TaskTurnRecord["timing"]>,
): NonNullable<TaskTurnRecord["timing"]> {
  if (a === undefined) return b;
  const turnMs = Math.min(MAX_TURN_MS, a.turnMs + b.turnMs);
  return { turnMs, commandMs: Math.min(turnMs, a.commandMs + b.commandMs) };
}

/** The turn's messages to its parent, as its record carries them (the lead checks them again). */
function sendsOf(pending: readonly Payload[], s: Session, task: string): TaskTurnRecord["sends"] {
  const sends: TaskTurnRecord["sends"] = [];
  for (const p of pending) {
    // A dispatch, a close, a message to a sub-task: this run's own, applied here.
    if (p.kind === "terminate" && inSubtree(s, task, p.thread)) continue;
    if (p.kind === "deliver" && (p.content.kind === "task" || inSubtree(s, task, p.to.thread)))
      continue;
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
 * A worktree of the run's subtree (the task's or a sub-task's) set up before its worker's
 * first turn here, as in the lead's run. Run without the lead's bookkeeping, which would commit the
 * job's state: a failed setup fails the run, and the lead's watch dispatches the task again or
 * takes it over, whose own run then records the failure and waits for the person. Marked under the
 * name the lead's run uses (ensure-setup.ts), so a sub-task's verifier here finds its worktree
 * set up and commits nothing.
 */
async function setUp(s: Session, task: string) {
  const setup = s.config.setup;
  if (setup.commands.length === 0) return;
  const ws = await taskWorkspace(s, task);
  const digest = setupDigest(setup);
  const name = s.engine.tasks[task]?.dir ?? `task-${task}`;
  if (await isSetUp(s.area, name, ws.root, digest)) return;
  const outcome = await runSetup(s, ws, `task ${task}`);
  if (outcome.failed !== null)
    throw new Error(
      `cfa/engine: task ${task}'s setup failed at \`${outcome.failed.command}\` (exit ${outcome.failed.exitCode ?? "killed"})`,
    );
  await markSetUp(s.area, name, ws.root, digest);
}
