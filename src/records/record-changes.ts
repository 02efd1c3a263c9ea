// How a wake changes the job's records in memory, as named, pure updaters (the Decider's
// evolve): `evolveRecords(records, change) → records`, one case per kind of change, so that
// what can happen to state.json is read in one place and tested without git. The protocol's
// own updaters (transition(), the failure accounting) stay in src/protocol; the engine applies
// both kinds to its session and nothing else writes `job` or `engine` there.

import type { JobRecord, Usage } from "../protocol/job-record.js";
import { RecordError } from "../protocol/errors.js";
import type {
  BlockedEntry,
  EngineState,
  EscalationMeta,
  MeasuredRecord,
  SetupFailure,
  SetupRun,
  TaskLedgerRecord,
  TaskMeta,
} from "./engine-state.js";
import { MCP_PROBLEMS_KEPT } from "./engine-state.js";
import { keepEvidence, type CommandEvidence } from "./command-evidence.js";

/** The records a wake holds: the job record and the engine's bookkeeping inside it. */
export interface JobRecords {
  job: JobRecord;
  engine: EngineState;
}

/** Paths under .github/workflows/ remembered as held back, at most. */
export const HELD_BACK_KEPT = 50;
/** Setup runs remembered (the latest), and distinct blocked requests kept. */
export const SETUP_RUNS_KEPT = 10;
export const BLOCKED_KEPT = 50;

/** A pause's reason kept in state.json, at most (characters): it is shown, not processed. */
export const PAUSE_REASON_KEPT = 500;

export type RecordChange =
  /** A task dispatched: started (its worktree made) or queued behind the fan-out cap. */
  | { type: "task-recorded"; id: string; meta: TaskMeta }
  /**
   * A task's status moved on: merged, dropped, in conflict. `at` (the engine's clock) when an
   * open task ends: its wall time is measured for `execute.runners: auto`.
   */
  | {
      type: "task-status-set";
      id: string;
      status: TaskMeta["status"];
      at?: string;
      /** Time its run of its own added, taken off the time measured (ms). */
      overheadMs?: number;
    }
  /**
   * A task instance's turn was applied (monotonic ms): its time and its commands', each as
   * alone on the runner, and what sharing the runner with other commands added (`contendedMs`,
   * taken off the task's own time when it ends).
   */
  | {
      type: "task-turn-timed";
      id: string;
      turnMs: number;
      commandMs: number;
      contendedMs: number;
    }
  /** A task's ledger in its own run: dispatched, folded, re-dispatched. */
  | { type: "task-run-recorded"; id: string; ledger: TaskLedgerRecord }
  /** A task no longer runs in a run of its own: the lead's run takes it over. */
  | { type: "task-run-dropped"; id: string }
  /** What a task's own run paid, folded by the lead: the job's cost, not its journal's calls. */
  | { type: "task-run-charged"; costUsd: number }
  /** The job's tasks run in the lead's run from now on, and why (said once). */
  | { type: "task-runs-single"; reason: string }
  /** The verifier's verdict on a task at `head`, its run number `run`. */
  | {
      type: "task-verified";
      id: string;
      verdict: "pass" | "fail";
      head: string;
      run: number;
      /** The verifier run's commands, as the engine saw them: the verdict's evidence. */
      evidence?: readonly CommandEvidence[];
    }
  /** The commands a worker's turn ran on its task, as the engine saw them. */
  | { type: "task-worked"; id: string; evidence: readonly CommandEvidence[] }
  /** A workspace's setup ran: recorded, and the failure the job waits on set or cleared. */
  | { type: "setup-ran"; run: SetupRun; failed: SetupFailure | null }
  /** A person asked the failed setup to be tried again. */
  | { type: "setup-retry-requested" }
  /** The egress proxy refused these requests of one command. */
  | {
      type: "requests-blocked";
      by: string;
      at: string;
      blocked: readonly Omit<BlockedEntry, "by" | "first" | "last">[];
    }
  /** An MCP server that did not start, died, or a `.mcp.json` that is not valid (server ""). */
  | { type: "mcp-problem"; server: string; reason: string; by: string; at: string }
  /** A question or gate asked by a turn: it takes the next escalation id (`q<N>`). */
  | { type: "escalation-opened"; meta: EscalationMeta }
  /** What became of an escalation: posted, framed by the proxy, answered, superseded… */
  | { type: "escalation-noted"; id: string; patch: Partial<EscalationMeta> }
  /** A record comment decided: it takes the next seq and waits in the outbox until it is posted. */
  | {
      type: "comment-queued";
      kind: string;
      /** The stored body (redacted, its own mentions as offsets: src/comments/own-marks.ts). */
      render: (seq: number) => { body: string; own?: { at: number; target: string }[] };
    }
  /** Every comment in the outbox is posted. */
  | { type: "outbox-posted" }
  /** The status comment's id on the forge. */
  | { type: "status-comment-posted"; id: number }
  /** The last comment and review read from the forge. */
  | { type: "people-read"; cursor: EngineState["cursor"] }
  /** The job's pull request, found open already. */
  | { type: "pull-request-found"; number: number }
  /** The job's pull request, opened now: a draft, or ready where drafts are not available. */
  | { type: "pull-request-opened"; number: number; draft: boolean; body: string }
  /** The job's pull request was given the body of this digest. */
  | { type: "pull-request-described"; body: string }
  /** The effects of the history's first `through` transitions have run. */
  | { type: "transitions-settled"; through: number }
  /** A turn of any instance ran. */
  | { type: "turn-counted" }
  /**
   * A turn counted when it ended was not applied and will be redone (the wake stopped early):
   * it counts once, when it is redone.
   */
  | { type: "turn-uncounted" }
  /** A model call was paid: its usage and price, and the next call number (its journal seq). */
  | { type: "call-charged"; usage: Usage; costUsd: number }
  /** The calls are accounted up to a journal seq (a journal found with calls not yet counted). */
  | { type: "calls-accounted"; through: number }
  /** The response journal lives in the area's file again: the record stops carrying it. */
  | { type: "journal-unloaded" }
  /** The model stayed unavailable: the job waits, carrying its unapplied responses. */
  | {
      type: "api-waiting";
      since: string;
      attempts: number;
      last: string;
      /** Why it waits: an outage (the default) or refused credentials. */
      reason?: "unavailable" | "credentials";
      carried: readonly string[];
    }
  /** The model answered again: the job no longer waits on it. */
  | { type: "api-answered" }
  /** The runner's disk is full: the job pauses until there is space again. */
  | { type: "disk-full"; since: string; last: string }
  /** A round was applied (or a wake ended without meeting it): the pause is over. */
  | { type: "disk-cleared" }
  /** A turn's changes to these workflow files were put back (pushing them needs a permission). */
  | { type: "workflows-held-back"; paths: readonly string[] }
  /** A person paused the job: nothing runs until it is resumed. */
  | { type: "job-paused"; by: string; since: string; reason: string }
  /** A person released the pause. */
  | { type: "job-resumed" };

export function evolveRecords(records: JobRecords, change: RecordChange): JobRecords {
  const { job, engine } = records;
  const withEngine = (next: EngineState): JobRecords => ({ job, engine: next });
  // The same value again changes nothing: the records stay as they are.
  const withEngineSetting = <F extends "statusComment" | "prBody">(
    field: F,
    value: EngineState[F],
  ): JobRecords => (engine[field] === value ? records : withEngine({ ...engine, [field]: value }));
  // A condition that ends (the journal unloaded, the API's wait, a full disk, a pause) takes
  // its field away; with none set the records stay as they are.
  const withEngineWithout = (field: "journal" | "apiWait" | "diskFull" | "paused"): JobRecords => {
    if (engine[field] === undefined) return records;
    const { [field]: _ended, ...rest } = engine;
    return withEngine(rest);
  };
  switch (change.type) {
    case "task-recorded":
      return withEngine({ ...engine, tasks: { ...engine.tasks, [change.id]: change.meta } });
    case "task-run-recorded":
      return withEngine({
        ...engine,
        fanout: {
          ...engine.fanout,
          tasks: { ...engine.fanout?.tasks, [change.id]: change.ledger },
        },
      });
    case "task-run-dropped": {
      if (engine.fanout === undefined) return records;
      const { [change.id]: _dropped, ...tasks } = engine.fanout.tasks;
      return withEngine({ ...engine, fanout: { ...engine.fanout, tasks } });
    }
    case "task-run-charged":
      return { job: { ...job, costUsd: job.costUsd + change.costUsd }, engine };
    case "task-runs-single":
      return withEngine({
        ...engine,
        fanout: { tasks: engine.fanout?.tasks ?? {}, single: change.reason },
      });
    case "task-status-set": {
      const meta = taskOf(engine, change.id);
      const ended =
        change.at === undefined
          ? null
          : taskEndMs(meta, change.status, change.at, change.overheadMs ?? 0);
      return withEngine({
        ...engine,
        tasks: { ...engine.tasks, [change.id]: { ...meta, status: change.status } },
        ...(ended === null
          ? {}
          : { measured: measure(engine.measured, { tasks: 1, taskMs: ended }) }),
      });
    }
    case "task-turn-timed": {
      const turnMs = Math.max(0, change.turnMs);
      // A command's time is inside its turn's: never more than the whole turn.
      const commandMs = Math.min(turnMs, Math.max(0, change.commandMs));
      const contendedMs = Math.max(0, change.contendedMs);
      const meta = engine.tasks[change.id];
      return withEngine({
        ...engine,
        ...(meta === undefined || contendedMs === 0
          ? {}
          : {
              tasks: {
                ...engine.tasks,
                [change.id]: { ...meta, contendedMs: (meta.contendedMs ?? 0) + contendedMs },
              },
            }),
        measured: measure(engine.measured, { turns: 1, turnMs, commandMs }),
      });
    }
    case "task-verified": {
      const { verifiedHead: _stale, ...rest } = taskOf(engine, change.id);
      const verified: TaskMeta = {
        ...rest,
        lastVerdict: change.verdict,
        verifyFailures: rest.verifyFailures + (change.verdict === "fail" ? 1 : 0),
        verifyRuns: change.run,
        // What was verified: a merge of the branch at any other commit is verified again.
        ...(change.verdict === "pass" ? { verifiedHead: change.head } : {}),
        verifierEvidence: keepEvidence(change.evidence ?? []),
      };
      return withEngine({ ...engine, tasks: { ...engine.tasks, [change.id]: verified } });
    }
    case "task-worked": {
      const meta = taskOf(engine, change.id);
      return withEngine({
        ...engine,
        tasks: {
          ...engine.tasks,
          [change.id]: { ...meta, workerEvidence: keepEvidence(change.evidence) },
        },
      });
    }
    case "setup-ran": {
      const runs = [...(engine.setup?.runs ?? []), change.run].slice(-SETUP_RUNS_KEPT);
      return withEngine({
        ...engine,
        setup: { runs, ...(change.failed === null ? {} : { failed: change.failed }) },
      });
    }
    case "setup-retry-requested": {
      const setup = engine.setup;
      if (setup?.failed === undefined) return records;
      return withEngine({
        ...engine,
        setup: { ...setup, failed: { ...setup.failed, retry: true } },
      });
    }
    case "requests-blocked":
      return withEngine({ ...engine, blocked: addBlocked(engine.blocked, change) });
    case "mcp-problem":
      return withEngine({ ...engine, mcp: addMcpProblem(engine.mcp, change) });
    case "escalation-opened": {
      const id = nextEscalationId(engine);
      return withEngine({
        ...engine,
        nextEscalation: engine.nextEscalation + 1,
        escalations: { ...engine.escalations, [id]: change.meta },
      });
    }
    case "escalation-noted": {
      const meta = engine.escalations[change.id];
      if (!meta) {
        throw new Error(`cfa/engine: escalation ${change.id} has no record in state.json`);
      }
      return withEngine({
        ...engine,
        escalations: { ...engine.escalations, [change.id]: { ...meta, ...change.patch } },
      });
    }
    case "comment-queued": {
      const seq = engine.seq;
      return withEngine({
        ...engine,
        seq: seq + 1,
        outbox: [...engine.outbox, queuedComment(seq, change.kind, change.render(seq))],
      });
    }
    case "outbox-posted":
      return engine.outbox.length === 0 ? records : withEngine({ ...engine, outbox: [] });
    case "status-comment-posted":
      return withEngineSetting("statusComment", change.id);
    case "people-read":
      return withEngine({ ...engine, cursor: change.cursor });
    case "pull-request-found": {
      // Whatever its body says now is not known: written again at the wake's end.
      const { prBody: _unknown, ...rest } = engine;
      return withEngine({ ...rest, pr: change.number });
    }
    case "pull-request-opened":
      return withEngine({
        ...engine,
        pr: change.number,
        prBody: change.body,
        ...(change.draft ? {} : { prNotDraft: true as const }),
      });
    case "pull-request-described":
      return withEngineSetting("prBody", change.body);
    case "transitions-settled":
      return withEngine({ ...engine, settled: change.through });
    case "turn-counted":
      return { job: { ...job, turns: job.turns + 1 }, engine };
    case "turn-uncounted":
      return { job: { ...job, turns: Math.max(0, job.turns - 1) }, engine };
    case "call-charged": {
      const u = job.usage;
      const { usage } = change;
      return {
        job: {
          ...job,
          usage: {
            inputTokens: u.inputTokens + usage.inputTokens,
            outputTokens: u.outputTokens + usage.outputTokens,
            cacheReadTokens: u.cacheReadTokens + usage.cacheReadTokens,
            cacheWriteTokens: u.cacheWriteTokens + usage.cacheWriteTokens,
          },
          costUsd: job.costUsd + change.costUsd,
        },
        engine: { ...engine, calls: (engine.calls ?? 0) + 1 },
      };
    }
    case "calls-accounted":
      return withEngine({ ...engine, calls: Math.max(engine.calls ?? 0, change.through) });
    case "journal-unloaded":
      return withEngineWithout("journal");
    case "api-waiting":
      return withEngine({
        ...engine,
        ...(change.carried.length > 0 ? { journal: [...change.carried] } : {}),
        apiWait: {
          since: engine.apiWait?.since ?? change.since,
          attempts: (engine.apiWait?.attempts ?? 0) + change.attempts,
          last: change.last.slice(0, 300),
          ...(change.reason === "credentials" ? { reason: "credentials" as const } : {}),
        },
      });
    case "api-answered":
      return withEngineWithout("apiWait");
    case "disk-full":
      return withEngine({
        ...engine,
        diskFull: {
          since: engine.diskFull?.since ?? change.since,
          last: change.last.slice(0, 300),
          pauses: (engine.diskFull?.pauses ?? 0) + 1,
        },
      });
    case "disk-cleared":
      return withEngineWithout("diskFull");
    case "workflows-held-back": {
      const known = new Set([...(engine.workflowsHeldBack ?? []), ...change.paths]);
      return withEngine({
        ...engine,
        workflowsHeldBack: [...known].sort().slice(0, HELD_BACK_KEPT),
      });
    }
    case "job-paused":
      return withEngine({
        ...engine,
        paused: {
          by: change.by,
          since: change.since,
          reason: change.reason.slice(0, PAUSE_REASON_KEPT),
        },
      });
    case "job-resumed":
      return withEngineWithout("paused");
    default: {
      const never: never = change;
      throw new Error(`cfa/records: unknown change ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Same request, same command: one entry, counted. Past BLOCKED_KEPT kinds the one seen least
 * recently makes room for the new one and its count moves to `dropped`: the newest kinds are
 * kept (an agent cannot bury the request that matters under earlier junk), and every refusal
 * is counted somewhere.
 */
function addBlocked(
  current: EngineState["blocked"],
  change: Extract<RecordChange, { type: "requests-blocked" }>,
): NonNullable<EngineState["blocked"]> {
  const entries = [...(current?.entries ?? [])];
  let dropped = current?.dropped ?? 0;
  for (const b of change.blocked) {
    const i = entries.findIndex(
      (e) =>
        e.host === b.host &&
        e.port === b.port &&
        e.protocol === b.protocol &&
        e.reason === b.reason &&
        e.command === b.command,
    );
    if (i >= 0) {
      const e = entries[i]!;
      entries[i] = { ...e, count: e.count + b.count, last: change.at };
      continue;
    }
    if (entries.length >= BLOCKED_KEPT) {
      let oldest = 0;
      for (let k = 1; k < entries.length; k += 1) {
        if (entries[k]!.last < entries[oldest]!.last) oldest = k;
      }
      dropped += entries[oldest]!.count;
      entries.splice(oldest, 1);
    }
    entries.push({ ...b, by: change.by, first: change.at, last: change.at });
  }
  return { entries, dropped };
}

/** The same server and reason is one line, counted; past MCP_PROBLEMS_KEPT lines, none is added. */
function addMcpProblem(
  current: EngineState["mcp"],
  change: Extract<RecordChange, { type: "mcp-problem" }>,
): NonNullable<EngineState["mcp"]> {
  const problems = [...(current?.problems ?? [])];
  const server = change.server.slice(0, 64);
  const reason = change.reason.slice(0, 600);
  const i = problems.findIndex((p) => p.server === server && p.reason === reason);
  if (i >= 0) {
    const p = problems[i]!;
    problems[i] = { ...p, count: p.count + 1, last: change.at };
  } else if (problems.length < MCP_PROBLEMS_KEPT) {
    problems.push({ server, reason, by: change.by, count: 1, first: change.at, last: change.at });
  }
  return { problems };
}

const NOTHING_MEASURED: MeasuredRecord = { turns: 0, turnMs: 0, commandMs: 0, tasks: 0, taskMs: 0 };

/** The job's measures with `add` counted in. */
function measure(current: MeasuredRecord | undefined, add: Partial<MeasuredRecord>) {
  const m = current ?? NOTHING_MEASURED;
  return {
    turns: m.turns + (add.turns ?? 0),
    turnMs: m.turnMs + (add.turnMs ?? 0),
    commandMs: m.commandMs + (add.commandMs ?? 0),
    tasks: m.tasks + (add.tasks ?? 0),
    taskMs: m.taskMs + (add.taskMs ?? 0),
  };
}

/**
 * How long a task took, start to end, when this change ends it: an open task with a known
 * start moving to merged, conflict or dropped, less the time its commands lost sharing the
 * runner and what a run of its own added. Null otherwise (a queued task dropped never
 * started; records older than `startedAt` have no start; a clock read backwards counts 0).
 */
function taskEndMs(
  meta: TaskMeta,
  status: TaskMeta["status"],
  at: string,
  overheadMs: number,
): number | null {
  if (meta.status !== "open" || status === "open" || status === "queued") return null;
  if (meta.startedAt === undefined) return null;
  // As alone on the runner: what its commands lost to others' is taken off.
  const ms = Date.parse(at) - Date.parse(meta.startedAt) - (meta.contendedMs ?? 0) - overheadMs;
  return Number.isFinite(ms) ? Math.max(0, ms) : null;
}

/** The id the next `escalation-opened` takes. */
export function nextEscalationId(engine: EngineState): string {
  return `q${engine.nextEscalation}`;
}

function taskOf(engine: EngineState, id: string): TaskMeta {
  const meta = engine.tasks[id];
  if (!meta) throw new RecordError(`no task ${id}`, "state.json engine");
  return meta;
}

function queuedComment(
  seq: number,
  kind: string,
  stored: { body: string; own?: { at: number; target: string }[] },
): EngineState["outbox"][number] {
  const own = stored.own ?? [];
  return { seq, kind, body: stored.body, ...(own.length > 0 ? { own } : {}) };
}
