// wake(job): run one job until it is quiescent — waiting on a person, or at a terminal. Every wake
// re-reads the forge: events are cues, never changes to apply blindly, so a lost or repeated
// delivery changes nothing but timing.

import { unmark } from "../comments/own-marks.js";
import { addressKey } from "../protocol/address.js";
import { isLiveState, isTerminalState, type State } from "../protocol/fsm.js";
import type { CfaConfig } from "../config/index.js";
import { closeIdleLineProcesses } from "../git/git-line-process.js";
import { diskFullDetail, isDiskFull } from "../ports/disk-full.js";
import type { EngineDeps } from "./job/engine-deps.js";
import { memoForge } from "./job/forge-memo.js";
import { currentLead } from "./job/instances.js";
import { loadConfig } from "./job/load-config.js";
import { describePullRequest } from "./job/pull-request.js";
import { refuseToStart } from "./job/refuse-to-start.js";
import {
  applyChange,
  openSession,
  persist,
  persistRecords,
  progress,
  type Session,
} from "./job/session.js";
import { removeStaleGitLocks } from "./job/stale-git-locks.js";
import { takeWakeLock, type WakeLock } from "./job/wake-lock.js";
import { stopOf } from "./job/wake-stop.js";
import { waitForApi } from "./turn/api-wait.js";
import { openJournal } from "./turn/charges.js";
import { runtimeOf } from "./turn/wake-runtime.js";
import { prepareWorkspaces } from "./setup/ensure-setup.js";
import { dispatchOnMail } from "./fanout/dispatch-on-mail.js";
import { dispatchSaved } from "./fanout/dispatch-saved.js";
import { runsElsewhere } from "./fanout/dispatch-task-run.js";
import { readTaskRunStates } from "./fanout/task-run-states.js";
import { watchAtWake } from "./fanout/watch-at-wake.js";
import { askPeople } from "./flow/ask-people.js";
import { clearDiskPause, diskFullAdvice, pauseForDisk, pausedForDisk } from "./flow/disk-pause.js";
import { remindGates } from "./flow/gate-reminders.js";
import { ensureLead } from "./flow/leads.js";
import { nudgeLead } from "./flow/nudge.js";
import { resumeUnfinished } from "./flow/resume.js";
import { runProxies } from "./flow/run-proxies.js";
import { ingestHumanEvents } from "./people/ingest.js";
import { findFollowUp } from "./people/follow-up-requests.js";
import { startFollowUpRound } from "./job/follow-up-round.js";
import { pollInterventions } from "./people/poll-interventions.js";
import { withdrawalPending } from "./people/withdrawal-pending.js";
import { applyEnded, unavailableIn } from "./apply/apply-ended.js";
import { foldAtWake } from "./apply/fold-at-wake.js";
import { TurnScheduler } from "./apply/turn-scheduler.js";
import { publishChecks } from "./publish/checks.js";
import { publishStatus, waitingOn } from "./publish/status.js";

/** How long an aborted wake waits for the journal's last push (SIGTERM leaves 2.5 s). */
const ABORT_FLUSH_MS = 1500;

export interface WakeSummary {
  job: number;
  state: State | null;
  waitingOn: string;
  /** Why the wake did not run the job (a bad config) or stopped early. */
  notes: string[];
  /** Set when another process's wake of this job is running: this one did nothing. */
  busy?: { pid: number };
  /**
   * Set when a stop (`WakeOptions.stop`) ended the wake with the job live: why, and whether
   * the job should be woken again at once — false when people withdrew it meanwhile.
   */
  stopped?: { reason: string; wakeAgain: boolean };
}

export interface WakeOptions {
  /** Aborts at once: the wake throws and nothing in flight lands (a crash by choice). */
  signal?: AbortSignal;
  /**
   * Ends the wake early but cleanly (job/wake-stop.ts): running turns stop at their next
   * model-call boundary (or at once, when its reason is a WakeStop with `now`), nothing of
   * them is applied, and the wake ends with its records committed and pushed.
   */
  stop?: AbortSignal;
  /**
   * When `stop` fires for the run's time (limits.runMinutes less limits.stopMarginMinutes from
   * the run's start), in ms of the engine's clock: `execute.runners: auto` weighs the time
   * left (fanout/runner-measures.ts). Absent: no limit (a local run).
   */
  stopAt?: number;
  /** Stop after this many applied turns (tests). */
  maxTurns?: number;
  /** The repository's configuration, when the caller has already read and validated it. */
  config?: CfaConfig;
  /**
   * Who a job that starts in this wake is for: whoever started it (on GitHub the person who
   * added the label: an outsider may have opened the issue, and only a reviewer with write
   * access makes a gate's approval count). By default the issue's author. A started job keeps
   * its own.
   */
  requester?: string;
}

export async function wake(
  n: number,
  deps: EngineDeps,
  options: WakeOptions = {},
): Promise<WakeSummary> {
  deps = { ...deps, forge: memoForge(deps.forge) };
  const config = await loadConfig(n, deps, options.config);
  if (!config.ok) return notRun(n, "a valid .github/cfa.yml", config.note);
  const refusal = await refuseToStart(n, deps, config.config);
  if (refusal !== null) return notRun(n, refusal.waitingOn, refusal.note);
  const locked = await lockJob(n, deps);
  if (locked.kind === "not-run") return locked.summary;
  try {
    const s = await openWake(n, deps, config.config, options.requester);
    const stopped = await runAndFinish(s, options);
    return summaryOf(s, stopped);
  } catch (error) {
    if (options.signal?.aborted || !isDiskFull(error)) throw error;
    return fullBeforeOpening(n, deps, error);
  } finally {
    // Its git helpers end with it: none keeps a work tree busy after the wake returned.
    closeIdleLineProcesses();
    await locked.lock.release();
  }
}

/** A wake that did not run the job: what it waits on, and the one note that says why. */
function notRun(n: number, waiting: string, note: string): WakeSummary {
  return { job: n, state: null, waitingOn: waiting, notes: [note] };
}

/** The job's wake lock, or the wake's answer when it cannot take it. */
async function lockJob(
  n: number,
  deps: EngineDeps,
): Promise<{ kind: "locked"; lock: WakeLock } | { kind: "not-run"; summary: WakeSummary }> {
  let locked: Awaited<ReturnType<typeof takeWakeLock>>;
  try {
    locked = await takeWakeLock(deps.workRoot, n, (line) =>
      deps.logger.warn(`cfa/engine: ${line}`),
    );
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    return { kind: "not-run", summary: fullBeforeOpening(n, deps, error) };
  }
  if (locked.kind === "taken") return { kind: "locked", lock: locked.lock };
  return {
    kind: "not-run",
    summary: {
      job: n,
      state: null,
      waitingOn: `the wake already running (pid ${locked.pid})`,
      notes: [
        `job #${n} is being worked on by another process (pid ${locked.pid}); it reads new comments at its agents' next model calls`,
      ],
      busy: { pid: locked.pid },
    },
  };
}

/** The job's session, opened under the lock, its turns looking at people between model calls. */
async function openWake(
  n: number,
  deps: EngineDeps,
  config: CfaConfig,
  requester: string | undefined,
): Promise<Session> {
  await clearStaleGitLocks(n, deps);
  const s = await followUpIfAsked(await openSession(n, deps, config, requester));
  runtimeOf(s).poll = () => pollInterventions(s);
  return s;
}

/**
 * A job that ended (DONE or WITHDRAWN) and was asked for more work since — a review that
 * requests changes, `/cfa <request>` — is followed up (docs/protocol.md#jobs-and-states): a
 * new job on the same branch and pull request, whose session this returns; the ended job's
 * records stay as they were. Otherwise the session as it was.
 */
async function followUpIfAsked(s: Session): Promise<Session> {
  if (!isTerminalState(s.job.state)) return s;
  // What the job's end decided (its transition's effects) is done before anything follows.
  await resumeUnfinished(s);
  const asked = await findFollowUp(s);
  if (asked === null) return s;
  await startFollowUpRound(s, asked);
  return openSession(s.n, s.deps, s.config);
}

/**
 * Runs the opened job, then publishes its end (finishWake) — unless the wake was aborted,
 * which leaves nothing in flight behind. Returns what a stop ended, if one did.
 */
async function runAndFinish(s: Session, options: WakeOptions): Promise<WakeSummary["stopped"]> {
  try {
    return await run(s, options);
  } catch (error) {
    if (options.signal?.aborted) {
      // Aborted (a second Ctrl-C, SIGTERM) is a crash by choice: the turns in flight never
      // land — their files are dropped, nothing more is committed or posted — and the next
      // wake redoes them without spending the retry budget (bounded crash-loss,
      // docs/protocol.md#invariants). What they paid reaches the journal's branch if it can in the
      // seconds left (GitHub kills the process 2.5 s after SIGTERM), so the next run pays it once.
      await s.repo.resetToHead();
      await Promise.race([
        runtimeOf(s).journalBranch?.flush(),
        new Promise((resolve) => setTimeout(resolve, ABORT_FLUSH_MS).unref()),
      ]);
      throw error;
    }
    // The runner's disk is full: the job pauses, live (disk-pause.ts).
    if (!isDiskFull(error)) throw error;
    await pauseForDisk(s, error);
    return undefined;
  } finally {
    if (!options.signal?.aborted) await finishWake(s);
  }
}

/**
 * What the wake says it did. Printed and logged, never posted: without the template's marks
 * (src/comments/own-marks.ts).
 */
function summaryOf(s: Session, stopped: WakeSummary["stopped"]): WakeSummary {
  return {
    job: s.n,
    state: s.job.state,
    waitingOn: stopped?.wakeAgain ? "the run it dispatches next" : unmark(waitingOn(s)).text,
    notes: s.notes,
    ...(stopped ? { stopped } : {}),
  };
}

/**
 * The disk was full before the job could be opened (the wake lock, the reset to the last
 * commit): nothing is recorded and nothing lost; the wake says so and ends.
 */
function fullBeforeOpening(n: number, deps: EngineDeps, error: unknown): WakeSummary {
  const note = diskFullAdvice(deps.clock.now().toISOString(), diskFullDetail(error) ?? "");
  deps.logger.warn(`cfa #${n}: ${note}`);
  return { job: n, state: null, waitingOn: note, notes: [note] };
}

/** The end of every wake that was not stopped: the status comment, the records, the checks. */
async function finishWake(s: Session): Promise<void> {
  const log = (what: string) => (error: unknown) =>
    s.deps.logger.error(`cfa #${s.n}: could not publish the ${what}: ${(error as Error).message}`);
  clearDiskPause(s, { unlessPausedNow: true });
  await publishStatus(s).catch(log("status"));
  await describePullRequest(s).catch(log("pull request's body"));
  try {
    await persistRecords(s, `cfa #${s.n}: status`);
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    // The disk filled up at the wake's last commit: say so where the person looks (once).
    if (!pausedForDisk(s)) {
      await pauseForDisk(s, error);
      await publishStatus(s).catch(log("status"));
    }
  }
  await publishChecks(s).catch(log("checks"));
  // The journal's last responses reach the forge before the run ends; at the job's end
  // nothing is left to replay, and its branch goes.
  const rt = runtimeOf(s);
  if (isTerminalState(s.job.state)) {
    await rt.journal?.clear();
    await rt.journalBranch?.remove().catch(log("journal branch's removal"));
  } else {
    await rt.journalBranch?.flush();
  }
}

/**
 * The loop of a wake: what is owed first, then turns until quiescent. Returns what a stop
 * (`options.stop`) ended, if one did while the job was live.
 */
async function run(s: Session, options: WakeOptions): Promise<WakeSummary["stopped"]> {
  options.signal?.throwIfAborted();
  runtimeOf(s).stopAtMs = options.stopAt ?? null;
  if (!(await catchUp(s))) return undefined;
  return runAllTurns(s, options);
}

/**
 * Everything owed before a turn runs: what a dead wake paid and left undone, people's
 * replies, gates' reminders, the tasks' own runs. False when the job runs no turn now.
 */
async function catchUp(s: Session): Promise<boolean> {
  // Calls a dead or outaged wake paid for are accounted before anything else runs.
  await openJournal(s);
  await resumeUnfinished(s);
  if (isTerminalState(s.job.state)) return false;
  await ingestHumanEvents(s, { checkPullRequest: true });
  // A paused job runs nothing — no lead, proxy, question, nudge or turn — until a
  // person resumes it; what people said meanwhile was recorded above and acts on resume.
  if (isPaused(s)) return false;
  // A gate nobody answered: its one reminder, or the job withdrawn when it expired.
  await remindGates(s);
  if (!isLiveState(s.job.state)) return false;
  // What tasks running in runs of their own pushed since the last wake reaches the bus;
  // then the states of the runs still watched, a run that ended since the branches were
  // fetched folded whole before it is judged (task-run-states.ts).
  if (await foldAtWake(s)) await persist(s, `cfa #${s.n}: task runs folded`);
  const runStates = await readTaskRunStates(s);
  if (runStates.ended && (await foldAtWake(s))) await persist(s, `cfa #${s.n}: task runs folded`);
  // A task run that ended without finishing its task: a new run (saved, then dispatched), or
  // the lead's own.
  const watched = await watchAtWake(s, runStates.states);
  if (!(await dispatchSaved(s)) && watched) await persist(s, `cfa #${s.n}: task runs watched`);
  return true;
}

/** The turns of the wake, until quiescent or stopped; then what a stop ended, if one did. */
async function runAllTurns(s: Session, options: WakeOptions): Promise<WakeSummary["stopped"]> {
  // A pause seen while turns run stops the wake as the time margin does (at each turn's next
  // model call, nothing of them applied, their calls journalled and charged once).
  const pause = new AbortController();
  options = {
    ...options,
    stop: options.stop ? AbortSignal.any([options.stop, pause.signal]) : pause.signal,
  };
  const turns = new TurnScheduler(s, {
    capacity: s.config.fanOut + 1,
    order: s.deps.applyOrder ?? "finished",
    signal: options.signal,
  });
  const takeBack = handDown(s, turns, pause, options.stop);
  try {
    await runTurns(s, turns, options);
  } finally {
    takeBack();
    await stopLeftTurns(s, turns, options.stop);
  }
  // A task the loop's last applied turn dispatched (it ended at maxTurns or at a stop) still
  // gets its run: its epoch is saved, and the run works on its own (dispatch-saved.ts).
  if (isLiveState(s.job.state) && s.engine.paused === undefined) await dispatchSaved(s);
  return endStopped(s, stopOf(options.stop), pause.signal.aborted);
}

/**
 * What the wake hands down to the turns while they run (turn/wake-runtime.ts): starting a
 * lead at once, waiting for a thread's turns to be applied, pausing; and a stop reaching every
 * running turn. Returns the function that takes it all back.
 */
function handDown(
  s: Session,
  turns: TurnScheduler,
  pause: AbortController,
  stopSignal: AbortSignal | undefined,
): () => void {
  const rt = runtimeOf(s);
  rt.lateJoin = (a) => turns.launch(a);
  rt.appliedOn = (thread) => turns.appliedOn(thread);
  rt.pause = (by) => {
    if (!pause.signal.aborted) pause.abort({ reason: `paused by @${by}`, now: false });
  };
  const onStop = () => {
    const stop = stopOf(stopSignal);
    if (stop === null) return;
    // Every running turn ends at its next model call; a cancellation cannot wait that long.
    rt.stopping = `the run stops early: ${stop.reason}`;
    if (stop.now) turns.abortRunning(rt.stopping);
    turns.poke();
  };
  stopSignal?.addEventListener("abort", onStop, { once: true });
  onStop();
  return () => {
    rt.lateJoin = null;
    rt.appliedOn = null;
    rt.pause = null;
    stopSignal?.removeEventListener("abort", onStop);
  };
}

/**
 * Nothing runs past its wake: a turn still running here is stopped and not applied (the wake
 * is stopping, or the job ended); its calls stay journalled. A stop at the boundary (the time
 * margin) lets each end at its next model call.
 */
async function stopLeftTurns(
  s: Session,
  turns: TurnScheduler,
  stopSignal: AbortSignal | undefined,
): Promise<void> {
  const stop = stopOf(stopSignal);
  if (turns.size === 0) return;
  const dropped = await turns.stopAll(stop?.reason ?? "the wake is ending", {
    atBoundary: stop !== null && !stop.now,
  });
  // Stopped early, a turn that ran to its boundary is redone next time: it counts then.
  if (stop !== null && isLiveState(s.job.state)) {
    for (const d of dropped) if (d.turn.run !== null) applyChange(s, { type: "turn-uncounted" });
  }
}

/**
 * The end of a wake that a stop or a pause ended with the job live: what it says, and whether
 * the job is woken again.
 */
async function endStopped(
  s: Session,
  stop: ReturnType<typeof stopOf>,
  paused: boolean,
): Promise<WakeSummary["stopped"]> {
  if (stop === null || !isLiveState(s.job.state)) return undefined;
  // What the stopped turns wrote in the job worktree (a lead's half-done files) is not
  // committed: the turn is redone next time. Every applied turn was committed already.
  await s.repo.resetToHead();
  if (paused) {
    // The pause is applied now if only a mid-turn look saw it (poll-interventions.ts), with
    // whatever else people said; the stopped turns are redone on resume.
    progress(s, s.job.state, "STOPPED", stop.reason);
    await ingestHumanEvents(s);
    // Resumed already (a `/resume` right behind the `/pause`): the next run carries on.
    if (isPaused(s) || !isLiveState(s.job.state)) return undefined;
    return { reason: stop.reason, wakeAgain: true };
  }
  const withdrawn = await withdrawalPending(s).catch(() => false);
  progress(s, s.job.state, "STOPPED", stop.reason);
  s.notes.push(`stopped early: ${stop.reason}`);
  return { reason: stop.reason, wakeAgain: !withdrawn };
}

function isPaused(s: Session): boolean {
  if (s.engine.paused === undefined || !isLiveState(s.job.state)) return false;
  s.notes.push(`paused by @${s.engine.paused.by} since ${s.engine.paused.since}`);
  return true;
}

/**
 * The scheduler's loop, with no round barrier (docs/protocol.md#message-soup): between two applied
 * turns, everything that used to happen between rounds — the lead, proxies, questions to people,
 * then starting every instance that has mail while a slot is free — and then the next turn to end
 * is applied.
 */
async function runTurns(s: Session, turns: TurnScheduler, options: WakeOptions): Promise<void> {
  let applied = 0;
  const stopping = () => options.stop?.aborted === true;
  while (isLiveState(s.job.state) && !stopping()) {
    options.signal?.throwIfAborted();
    await ensureLead(s);
    if (!isLiveState(s.job.state)) break;

    // Escalations first: their answers are what the agents wait on.
    const proxies = await runProxies(s);
    if (proxies.kind === "unavailable") {
      await giveUpTurns(s, turns, proxies.error);
      return;
    }
    turns.abortConsumed();
    if (!isLiveState(s.job.state)) break;
    const asked = await askPeople(s);
    // A task whose run ended with its worker waiting gets its next run once mail is there; a
    // task the lead's last turn dispatched gets its first. Each new epoch is pushed before its
    // run is dispatched (dispatch-saved.ts).
    const mailed = await dispatchOnMail(s);
    if (!(await dispatchSaved(s)) && mailed)
      await persist(s, `cfa #${s.n}: task runs dispatched on mail`);

    // Every workspace is set up before an agent works in it; a failed setup makes
    // the job wait for the person (fix the config, /retry), not the agents work without it.
    const starting = new Set(turns.runnable());
    const toSetUp = s.soup.runnable().filter((a) => starting.has(addressKey(a)));
    if ((await prepareWorkspaces(s, toSetUp)) === "waiting") break;
    turns.startRunnable();
    if (turns.size === 0) {
      if (proxies.kind === "ran" || asked) continue;
      if (waitingOnPerson(s)) break;
      // The lead waits on tasks in their own runs: each run wakes it when it ends.
      if (waitingOnTaskRuns(s)) break;
      if (!(await nudgeIdleLead(s))) break;
      continue;
    }

    const ended = await turns.next(stopping);
    options.signal?.throwIfAborted();
    if (ended === null) continue;
    if (stopping()) {
      // Stopped: nothing more is applied; this turn is redone next time (turns.stopAll).
      turns.putBack(ended);
      break;
    }
    const unavailable = ended.aborted === null ? unavailableIn([ended.turn]) : null;
    if (unavailable !== null) {
      await giveUpTurns(s, turns, unavailable);
      return;
    }
    if (ended.aborted === null && isDiskFull(ended.turn.error)) {
      // The runner's disk is full (flow/disk-pause.ts): every running turn stops
      // (their calls stay journalled) and the job pauses, live.
      await turns.stopAll("the runner's disk is full");
      await pauseForDisk(s, ended.turn.error, ended.turn.a);
      if (pausedForDisk(s)) return;
      continue; // the turn failed instead (it kept filling the disk): on with the job
    }
    await applyEnded(s, turns, ended);
    clearDiskPause(s);
    applied += 1;
    if (options.maxTurns !== undefined && applied >= options.maxTurns) break;
    // A turn boundary: what people said in the meantime applies now
    // (docs/protocol.md#intervention); the cheap look first (a conditional request on GitHub), so a
    // turn costs no reads when nobody wrote.
    // A withdrawal seen mid-turn (poll-interventions.ts) is read here whatever the probe says:
    // the poll's look already took the probe's news.
    const rt = runtimeOf(s);
    if (
      isLiveState(s.job.state) &&
      (rt.stopping !== null || (await s.deps.forge.issueChanged(s.n)))
    ) {
      await ingestHumanEvents(s);
      turns.abortConsumed();
      // Paused: the turns still running stop at their next call, as for a stop.
      if (s.engine.paused !== undefined) rt.pause?.(s.engine.paused.by);
      // Applied (or refused, when its author may not withdraw): turns run normally again.
      if (!stopping()) rt.stopping = null;
    }
  }
}

/**
 * The model is unavailable (api-wait.ts): every other running turn stops — their calls stay
 * journalled — and the wake gives up what is not committed and waits.
 */
async function giveUpTurns(
  s: Session,
  turns: TurnScheduler,
  error: Parameters<typeof waitForApi>[1],
): Promise<void> {
  await turns.stopAll("the Anthropic API is unavailable");
  await waitForApi(s, error);
}

function waitingOnTaskRuns(s: Session): boolean {
  return Object.keys(s.engine.fanout?.tasks ?? {}).some((id) => {
    const meta = s.engine.tasks[id];
    return meta !== undefined && runsElsewhere(s, meta.thread);
  });
}

function waitingOnPerson(s: Session): boolean {
  return s.soup.pendingEscalations().some((m) => m.kind === "AskHuman");
}

/**
 * Nothing runs and nobody is asked: the lead ended its turn without finishing. That is a
 * PENDING turn (docs/protocol.md#jobs-and-states); nudge it. Nudges are free of the retry budget
 * and bounded on their own (nudge.ts), so a lead that never finishes still ends. False: no lead to
 * nudge.
 */
async function nudgeIdleLead(s: Session): Promise<boolean> {
  const lead = currentLead(s);
  if (!lead) return false;
  await nudgeLead(s, lead);
  await persist(s, `cfa #${s.n}: nudge ${addressKey(lead)}`);
  return true;
}

/** A process killed inside a git command left its locks: nobody else works on this job. */
async function clearStaleGitLocks(n: number, deps: EngineDeps): Promise<void> {
  const stale = await removeStaleGitLocks(deps.repoDir, deps.workRoot, n);
  if (stale.length > 0)
    deps.logger.warn(
      `cfa: job #${n}: removed git locks a killed process left: ${stale.join(", ")}`,
    );
}
