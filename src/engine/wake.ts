// wake(job): run one job until it is quiescent — waiting on a person, or at a terminal
// (issue 4 §2). Every wake re-reads the forge: events are cues, never changes to apply
// blindly, so a lost or repeated delivery changes nothing but timing.

import { unmark } from "../comments/own-marks.js";
import { addressKey } from "../protocol/address.js";
import { isLiveState, isTerminalState, type State } from "../protocol/fsm.js";
import type { CfaConfig } from "../config/index.js";
import type { EngineDeps } from "./job/engine-deps.js";
import { memoForge } from "./job/forge-memo.js";
import { loadConfig } from "./job/load-config.js";
import { refuseToStart } from "./job/refuse-to-start.js";
import { openSession, persist, type Session } from "./job/session.js";
import { removeStaleGitLocks } from "./job/stale-git-locks.js";
import { takeWakeLock } from "./job/wake-lock.js";
import { askPeople } from "./flow/ask-people.js";
import { currentLead } from "./flow/instances.js";
import { ensureLead } from "./flow/leads.js";
import { nudgeLead } from "./flow/nudge.js";
import { resumeUnfinished } from "./flow/resume.js";
import { runProxies } from "./flow/run-proxies.js";
import { ingestHumanEvents } from "./people/ingest.js";
import { publishChecks } from "./publish/checks.js";
import { publishStatus, waitingOn } from "./publish/status.js";
import { waitForApi } from "./turn/api-wait.js";
import { openJournal } from "./turn/charges.js";
import { applyRound, runnableInstances, runRound, unavailableIn } from "./turn/run-round.js";

export interface WakeSummary {
  job: number;
  state: State | null;
  waitingOn: string;
  /** Why the wake did not run the job (a bad config) or stopped early. */
  notes: string[];
  /** Set when another process's wake of this job is running: this one did nothing. */
  busy?: { pid: number };
}

export interface WakeOptions {
  signal?: AbortSignal;
  /** Stop after this many rounds of turns (tests and `--step`). */
  maxRounds?: number;
  /** The repository's configuration, when the caller has already read and validated it. */
  config?: CfaConfig;
  /**
   * Who a job that starts in this wake is for: whoever started it (on GitHub the person who
   * added the label, issue 10 §7). By default the author. A started job keeps its own.
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
  if (!config.ok)
    return { job: n, state: null, waitingOn: "a valid .github/cfa.yml", notes: [config.note] };
  const refusal = await refuseToStart(n, deps, config.config);
  if (refusal !== null)
    return { job: n, state: null, waitingOn: refusal.waitingOn, notes: [refusal.note] };
  const locked = await takeWakeLock(deps.workRoot, n);
  if (locked.kind === "busy") {
    return {
      job: n,
      state: null,
      waitingOn: `the wake already running (pid ${locked.pid})`,
      notes: [
        `job #${n} is being worked on by another process (pid ${locked.pid}); it reads new comments at its agents' next model calls`,
      ],
      busy: { pid: locked.pid },
    };
  }
  try {
    await clearStaleGitLocks(n, deps);
    const s = await openSession(n, deps, config.config, options.requester);
    try {
      await run(s, options);
    } catch (error) {
      if (options.signal?.aborted) {
        // Stopped (Ctrl-C, a cancelled run) is a crash by choice: the round in flight never
        // lands — its files are dropped, nothing more is committed or posted — and the next
        // wake redoes it without spending the retry budget (seed 000 §11 bounded crash-loss).
        await s.repo.resetToHead();
      }
      throw error;
    } finally {
      if (!options.signal?.aborted) await finishWake(s);
    }
    // Printed and logged, never posted: without the template's marks (src/comments/own-marks.ts).
    return { job: n, state: s.job.state, waitingOn: unmark(waitingOn(s)).text, notes: s.notes };
  } finally {
    await locked.lock.release();
  }
}

/** The end of every wake that was not stopped: the status comment, the records, the checks. */
async function finishWake(s: Session): Promise<void> {
  const log = (what: string) => (error: unknown) =>
    s.deps.logger.error(`cfa #${s.n}: could not publish the ${what}: ${(error as Error).message}`);
  await publishStatus(s).catch(log("status"));
  await persist(s, `cfa #${s.n}: status`);
  await publishChecks(s).catch(log("checks"));
}

/** The loop of a wake: people's replies, escalations, then rounds of turns, until quiescent. */
async function run(s: Session, options: WakeOptions): Promise<void> {
  options.signal?.throwIfAborted();
  // Calls a dead or outaged wake paid for are accounted before anything else runs.
  await openJournal(s);
  await resumeUnfinished(s);
  if (isTerminalState(s.job.state)) return;
  await ingestHumanEvents(s, { checkPullRequest: true });
  let rounds = 0;
  while (isLiveState(s.job.state)) {
    options.signal?.throwIfAborted();
    await ensureLead(s);
    if (!isLiveState(s.job.state)) break;

    // Escalations first: their answers are what the agents wait on.
    const proxies = await runProxies(s);
    if (proxies === "waiting") return;
    if (!isLiveState(s.job.state)) break;
    const asked = await askPeople(s);

    const runnable = runnableInstances(s);
    if (runnable.length === 0) {
      if (proxies === "ran" || asked) continue;
      if (waitingOnPerson(s)) break;
      if (!(await nudgeIdleLead(s))) break;
      continue;
    }

    const turns = await runRound(s, runnable.slice(0, s.config.fanOut + 1), options.signal);
    options.signal?.throwIfAborted();
    const unavailable = unavailableIn(turns);
    if (unavailable !== null) {
      await waitForApi(s, unavailable);
      return;
    }
    await applyRound(s, turns);
    rounds += 1;
    if (options.maxRounds !== undefined && rounds >= options.maxRounds) break;
    // A turn boundary: what people said in the meantime applies now (seed 000 §8).
    if (isLiveState(s.job.state)) await ingestHumanEvents(s);
  }
}

function waitingOnPerson(s: Session): boolean {
  return s.soup.pendingEscalations().some((m) => m.kind === "AskHuman");
}

/**
 * Nothing runs and nobody is asked: the lead ended its turn without finishing. That is a
 * PENDING turn (seed 000 §3); nudge it. Nudges are free of the retry budget and bounded on
 * their own (nudge.ts), so a lead that never finishes still ends. False: no lead to nudge.
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
