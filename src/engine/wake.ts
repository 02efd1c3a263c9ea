// wake(job): run one job until it is quiescent — waiting on a person, or at a terminal
// (issue 4 §2). Every wake re-reads the forge: events are cues, never changes to apply
// blindly, so a lost or repeated delivery changes nothing but timing.

import { isLiveState, isTerminalState, type State } from "../protocol/fsm.js";
import { addressKey } from "../protocol/address.js";
import { enforceCaps, recordSuccessfulTurn, type Caps } from "../protocol/failure.js";
import { formatConfigErrors, parseConfig, type CfaConfig } from "../config/index.js";
import type { EngineDeps } from "./job/engine-deps.js";
import { memoForge } from "./job/forge-memo.js";
import { removeStaleGitLocks } from "./job/stale-git-locks.js";
import { postToHuman, proxiesToRun, runProxy, unpostedQuestions } from "./flow/escalations.js";
import { ingestHumanEvents } from "./people/ingest.js";
import { resumeUnfinished } from "./flow/resume.js";
import { currentLead } from "./flow/instances.js";
import { ensureLead } from "./flow/leads.js";
import { nudgeLead } from "./flow/nudge.js";
import { flushOutbox } from "./publish/outbox.js";
import { readHiddenBlock } from "../comments/hidden-block.js";
import { configErrorComment, isSameConfigError } from "../comments/config-error-comment.js";
import { describeBreach } from "../protocol/failure.js";
import {
  jobStarted,
  openSession,
  ORCHESTRATOR,
  persist,
  progress,
  now,
  type Session,
} from "./job/session.js";
import { publishChecks } from "./publish/checks.js";
import { publishStatus, waitingOn } from "./publish/status.js";
import { afterTransition, applyTransition } from "./flow/transitions.js";
import { failState } from "./flow/fail-state.js";
import { applyTurn } from "./turn/apply-turn.js";
import { runInstanceTurn, type InstanceTurn } from "./turn/run-instance-turn.js";
import { isModelUnavailable } from "../ports/model.js";
import type { Address } from "../protocol/address.js";
import { waitForApi } from "./turn/api-wait.js";
import { openJournal } from "./turn/charges.js";
import { runtimeOf } from "./job/wake-runtime.js";
import { takeWakeLock } from "./job/wake-lock.js";

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
   * added the label, issue 10 §7). By default the issue's author. A started job keeps its own.
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
    // A process killed inside a git command left its locks: nobody else works on this job.
    const stale = await removeStaleGitLocks(deps.repoDir, deps.workRoot, n);
    if (stale.length > 0)
      deps.logger.warn(
        `cfa: job #${n}: removed git locks a killed process left: ${stale.join(", ")}`,
      );
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
    return { job: n, state: s.job.state, waitingOn: waitingOn(s), notes: s.notes };
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
    let moved = false;
    for (const m of proxiesToRun(s)) {
      if (!isLiveState(s.job.state)) break;
      try {
        await runProxy(s, m);
        // A proxy's turn that ran is a successful turn in the state (failure.ts).
        s.job = recordSuccessfulTurn(s.job);
      } catch (error) {
        if (isModelUnavailable(error)) {
          await waitForApi(s, error);
          return;
        }
        // A proxy that cannot run (its model refuses every request, say) is a state-level
        // failure like a lead's failed turn: retried, then FAILURE — never a job that throws
        // at every wake and so never ends (seed 000 §12 "Termination guaranteed").
        const reason = `proxy ${m.id}: ${((error as Error).message ?? String(error)).slice(0, 500)}`;
        progress(s, "PROXY", "ERROR", reason);
        await failState(s, reason, null, "");
      }
      await persist(s, `cfa #${s.n}: ${s.job.state} proxy ${m.id}`);
      await runtimeOf(s).journal?.clear();
      moved = true;
      // A proxy's calls count like any turn's (issue 11 point 6): the caps after each.
      await enforceJobCaps(s);
    }
    if (!isLiveState(s.job.state)) break;
    for (const m of unpostedQuestions(s)) {
      await postToHuman(s, m);
      await persist(s, `cfa #${s.n}: ${s.job.state} asked ${m.id}`);
      s.engine = await flushOutbox(s.deps.forge, s.n, s.engine, s.paths.dir);
      await persist(s, `cfa #${s.n}: posted ${m.id}`);
      moved = true;
    }

    const runnable = s.soup.runnable().filter((a) => addressKey(a) !== addressKey(ORCHESTRATOR));
    if (runnable.length === 0) {
      if (moved) continue;
      if (waitingOnPerson(s)) break;
      // Nothing runs and nobody is asked: the lead ended its turn without finishing. That is
      // a PENDING turn (seed 000 §3); nudge it. Nudges are free of the retry budget and
      // bounded on their own (nudge.ts), so a lead that never finishes still ends.
      const lead = currentLead(s);
      if (!lead) break;
      await nudgeLead(s, lead);
      await persist(s, `cfa #${s.n}: nudge ${addressKey(lead)}`);
      continue;
    }

    const round = runnable
      .sort((x, y) => addressKey(x).localeCompare(addressKey(y)))
      .slice(0, s.config.fanOut + 1);
    progress(s, s.job.state, "ROUND", round.map(addressKey).join(", "), true);
    const turns = await runRound(s, round, options.signal);
    options.signal?.throwIfAborted();
    const unavailable = turns.find((t) => isModelUnavailable(t.error));
    if (unavailable !== undefined && isModelUnavailable(unavailable.error)) {
      await waitForApi(s, unavailable.error);
      return;
    }
    for (const t of turns) {
      if (!isLiveState(s.job.state)) {
        // The job ended earlier in this round (a withdraw outcome, a failure): the other
        // turns' Runs were consumed by the cascade; nothing of theirs is applied.
        continue;
      }
      if (s.soup.stateOf(t.a) !== "Run") continue;
      await applyTurn(s, t);
    }
    await enforceJobCaps(s);
    s.engine = await flushOutbox(s.deps.forge, s.n, s.engine, s.paths.dir);
    await persist(s, `cfa #${s.n}: posted`);
    // Every turn of the round is committed with its calls accounted: none can be redone.
    await runtimeOf(s).journal?.clear();
    rounds += 1;
    if (options.maxRounds !== undefined && rounds >= options.maxRounds) break;
    // A turn boundary: what people said in the meantime applies now (seed 000 §8).
    if (isLiveState(s.job.state)) await ingestHumanEvents(s);
  }
}

/**
 * Runs a round's turns in parallel (seed 000 §5: instances run without synchronisation) and
 * returns them in the round's fixed order for applying. An instance that becomes runnable
 * while the round runs — a lead woken by an intervention ([wake-int], seed 000 §8) — joins
 * the round at once instead of waiting for the others' turns to end.
 */
async function runRound(
  s: Session,
  round: Address[],
  signal: AbortSignal | undefined,
): Promise<InstanceTurn[]> {
  const rt = runtimeOf(s);
  const started = new Set<string>();
  const pending: Promise<InstanceTurn>[] = [];
  const launch = (a: Address) => {
    const key = addressKey(a);
    if (started.has(key)) return;
    if (!s.soup.runnable().some((r) => addressKey(r) === key)) return;
    started.add(key);
    if (!round.some((r) => addressKey(r) === key)) {
      progress(s, s.job.state, "JOIN", `${key} joins the round in flight`, true);
    }
    pending.push(runInstanceTurn(s, a, signal));
  };
  round.forEach(launch);
  rt.lateJoin = launch;
  const turns: InstanceTurn[] = [];
  try {
    while (turns.length < pending.length) {
      turns.push(...(await Promise.all(pending.slice(turns.length))));
    }
  } finally {
    rt.lateJoin = null;
    rt.stopping = null;
  }
  return turns.sort((x, y) => addressKey(x.a).localeCompare(addressKey(y.a)));
}

function waitingOnPerson(s: Session): boolean {
  return s.soup.pendingEscalations().some((m) => m.kind === "AskHuman");
}

async function enforceJobCaps(s: Session): Promise<void> {
  if (!isLiveState(s.job.state)) return;
  const caps: Caps = s.config.caps;
  const { breach } = enforceCaps(s.job, caps, { at: now(s), by: "orchestrator" });
  if (!breach) return;
  // Seed 001 CO-3: a breached cap fails the job, naming the cap.
  const applied = await applyTransition(s, "FAILURE", "orchestrator", describeBreach(breach));
  s.notes.push(describeBreach(breach));
  await persist(s, `cfa #${s.n}: ${applied.from} → FAILURE (${breach.cap})`);
  await afterTransition(s, applied);
}

/**
 * A job starts only for an open issue carrying the label (DESIGN.md "What a user sees" 2); a
 * wake for any other issue creates nothing — no branch, no comment — rather than starting a
 * job only to withdraw it because the label is missing. A started job is never refused here:
 * its label removed or issue closed is a withdraw, read with the other events.
 */
async function refuseToStart(
  n: number,
  deps: EngineDeps,
  config: CfaConfig,
): Promise<{ note: string; waitingOn: string } | null> {
  if (await jobStarted(n, deps)) return null;
  const issue = await deps.forge.getIssue(n);
  const waiting = `an open issue labelled \`${config.label}\``;
  if (issue.state !== "open")
    return { note: `issue #${n} is closed: no job starts`, waitingOn: waiting };
  if (!issue.labels.includes(config.label)) {
    return {
      note: `issue #${n} does not carry the \`${config.label}\` label: no job starts`,
      waitingOn: waiting,
    };
  }
  return null;
}

/** A bad `.github/cfa.yml` gets one comment naming the fields, and the job does not run. */
async function loadConfig(
  n: number,
  deps: EngineDeps,
  given?: CfaConfig,
): Promise<{ ok: true; config: CfaConfig } | { ok: false; note: string }> {
  if (given) return { ok: true, config: given };
  const parsed = parseConfig(await deps.forge.readConfig());
  if (parsed.ok) return { ok: true, config: parsed.config };
  const { body, digest } = configErrorComment(n, parsed.errors);
  const same = isSameConfigError(digest);
  const already = (await deps.forge.listComments(n)).some((c) => {
    if (c.author.login !== deps.forge.botLogin) return false;
    const block = readHiddenBlock(c.body);
    return block !== null && same(block);
  });
  if (!already) await deps.forge.createComment(n, body);
  return { ok: false, note: `.github/cfa.yml is not valid:\n${formatConfigErrors(parsed.errors)}` };
}
