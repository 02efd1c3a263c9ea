// One fanned-out job in the simulation: the lead's run and the task runs, over real git (a
// fresh clone per run, a bare remote) and the fake Actions API, on a virtual clock. The runs
// here are the protocol's skeleton — scripted model calls and turn durations, the real record
// format, the real fold checks (src/engine/fanout/fold-task-records.ts), the real leased
// pushes (src/engine/fanout/leased-refs.ts) and the real run watch — not the engine's agents.

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import {
  foldTaskRecords,
  totalCharged,
  type TaskLedger,
} from "../../../src/engine/fanout/fold-task-records.js";
import { pushLeased, type RefUpdate, type RunGit } from "../../../src/engine/fanout/leased-refs.js";
import { readTaskTurnRecords } from "../../../src/engine/fanout/task-turn-files.js";
import { StaleTaskRunError, TaskTurnWriter } from "../../../src/engine/fanout/task-turn-writer.js";
import { chooseRunner } from "../../../src/engine/fanout/choose-runner.js";
import type { RunnerMode } from "../../../src/config/index.js";
import { fansOut, watchTaskRun } from "../../../src/engine/fanout/watch-task-run.js";
import {
  taskTurnKey,
  TASK_TURNS_DIR,
  type TaskTurnRecord,
} from "../../../src/records/task-turn-record.js";
import type { FakeActions, RunContext, Conclusion } from "./fake-actions.js";
import { cloneFor, git, type Clone, type Remote } from "./sim-git.js";
import { writeFile } from "node:fs/promises";

export const JOB = 1;
export const JOB_REF = `refs/heads/cfa/${JOB}`;
export const taskRef = (t: string) => `refs/heads/cfa/${JOB}-${t}`;
export const STATE_PATH = `.cfa/jobs/${JOB}/fanout.json`;
export const BUS_PATH = `.cfa/jobs/${JOB}/bus.jsonl`;
export const LEAD = `lead@job:${JOB}`;

export interface TaskScript {
  id: string;
  turns: number;
  callsPerTurn: number;
  /** Each model call's latency, or the range each call's is drawn from (uniform, per call). */
  callMs: number | readonly [min: number, max: number];
  /** Command time per turn, alone on its runner (2 cores, each command wants both). */
  commandMs: number;
}

export interface Scenario {
  tasks: TaskScript[];
  mode: RunnerMode;
  callUsd: number;
  allowanceUsd: number;
  /** The lead stops this long before its time limit (limits.stopMarginMinutes). */
  stopMarginMs: number;
  leadTimeLimitMs: number;
  taskTimeLimitMs: number;
  /** Virtual time the lead spends folding a task's records and merging. */
  foldMs: number;
}

interface TaskState {
  ledger: TaskLedger;
  created: boolean;
  /** Who holds the task branch's lease for the ledger's epoch: a run id, or "lead:<run>". */
  runner: string | null;
  deaths: number;
  done: boolean;
  merged: string | null;
  refused: string[];
}

interface JobState {
  state: "EXECUTE" | "DONE" | "WITHDRAWN" | "FAILED";
  tasks: Record<string, TaskState>;
  notes: string[];
}

/** Ground truth the trial checks against what the runs recorded. */
export interface World {
  root: string;
  remote: Remote;
  actions: FakeActions;
  scenario: Scenario;
  withdrawn: boolean;
  /** Every model call started (paid), by whom. */
  paid: { run: string; task: string; usd: number }[];
  /** Every turn started and whether it ended with its record pushed. */
  turns: { run: string; task: string; seq: number; epoch: number; ended: boolean }[];
  /** Commits the lead verified before merging them. */
  verified: Set<string>;
  /** Per-run faults on git pushes (a kill mid-push, a lost answer). */
  pushFaults: (run: string) => { beforePush?: () => void; afterPush?: () => void };
  /** Commands running now per runner (the contention of one runner's 2 cores). */
  commandsRunning: Map<string, number>;
  /**
   * A model call's latency drawn from its range, the same for the same call (task, turn, call)
   * whatever runs it: the trial's seeded draw, so each way of running a job meets the same.
   */
  latency(range: readonly [number, number], call: string): number;
  /** Each task's turns in one run, from its first call to its last turn's end (virtual ms). */
  spans: { task: string; run: string; start: number; end: number }[];
  dispatchWake(): void;
  /** Calls of the task job that were refused (no `task` job, a 403). */
  taskJobMissing: boolean;
}

class Stale extends Error {
  override readonly name = "Stale";
}

function initialState(s: Scenario): JobState {
  const tasks: Record<string, TaskState> = {};
  for (const t of s.tasks) {
    tasks[t.id] = {
      ledger: {
        epoch: 0,
        folded: 0,
        charged: {},
        allowanceUsd: s.allowanceUsd,
        callUsd: s.callUsd,
      },
      created: false,
      runner: null,
      deaths: 0,
      done: false,
      merged: null,
      refused: [],
    };
  }
  return { state: "EXECUTE", tasks, notes: [] };
}

async function readAt(c: Clone, sha: string, path: string): Promise<string | null> {
  try {
    return await c.run(["show", `${sha}:${path}`]);
  } catch {
    return null;
  }
}

async function fetchRefs(c: Clone): Promise<Record<string, string>> {
  await c.run(["fetch", "--quiet", "--prune", "origin", "+refs/heads/*:refs/remotes/origin/*"]);
  const out = await c.run([
    "for-each-ref",
    "--format=%(objectname) %(refname)",
    "refs/remotes/origin/",
  ]);
  const refs: Record<string, string> = {};
  for (const line of out.split("\n")) {
    const [sha, name] = line.trim().split(" ");
    if (sha && name) refs[name.replace("refs/remotes/origin/", "refs/heads/")] = sha;
  }
  return refs;
}

/** The lead's reader of a task branch's records (src/engine/fanout/task-turn-files.ts). */
async function readRecords(c: Clone, sha: string): Promise<TaskTurnRecord[]> {
  return (await readTaskTurnRecords(c.run, sha)).records;
}

/** Commits `files` in the worktree `dir` on its current HEAD; returns the commit. */
async function commitFiles(
  c: Clone,
  dir: string,
  files: Record<string, string>,
  message: string,
): Promise<string> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "--quiet", "--allow-empty", "-m", message]);
  return (await git(dir, ["rev-parse", "HEAD"])).trim();
}

const pushOpts = (writer: string, epoch?: number) => [
  `writer=${writer}`,
  ...(epoch !== undefined ? [`epoch=${epoch}`] : []),
];

// ---------------------------------------------------------------- the task's turns

/**
 * Runs a task's turns from where its branch is, as the holder of `epoch`'s lease: a task run
 * (`writer` its run id) or the lead running the task itself. Every model call is recorded on
 * the branch before the next (the turn's record rewritten), so a kill loses at most the call
 * in flight; a turn's end records its decisions. Returns why it stopped.
 */
async function taskTurns(
  w: World,
  ctx: RunContext,
  c: Clone,
  state: JobState,
  task: string,
  epoch: number,
  writer: string,
  runner: string,
): Promise<"done" | "stopped" | "allowance"> {
  const script = w.scenario.tasks.find((t) => t.id === task)!;
  const ts = state.tasks[task]!;
  const ref = taskRef(task);
  const refs = await fetchRefs(c);
  const head = refs[ref];
  if (head === undefined) throw new Stale();
  const dir = join(c.dir + "-wt", task);
  await git(c.dir, ["worktree", "add", "--quiet", "--detach", dir, head]);
  const records = await readRecords(c, head);
  const seen = foldTaskRecords(ts.ledger, records, { job: JOB, task, visible: new Set([LEAD]) });
  let spent = totalCharged(seen.ledger);
  const mine = records.filter((r) => r.epoch === epoch && r.ended).map((r) => r.seq);
  let seq = Math.max(ts.ledger.folded, ...mine) + 1;
  // The task run's real record writer, over git in the run's worktree (pushes through the
  // run's own transport: its token, its faults).
  const inTree: RunGit = (args, options) =>
    args[0] === "push" || args[0] === "ls-remote" ? c.run(args, options) : git(dir, args);
  const records_ = new TaskTurnWriter({
    git: inTree,
    writeFile: async (path, text) => {
      await mkdir(join(dir, path, ".."), { recursive: true });
      await writeFile(join(dir, path), text);
    },
    remote: "origin",
    ref,
    head,
    who: { job: JOB, task, epoch, run: ctx.runId },
    pushOptions: pushOpts(writer, epoch),
  });
  const stale = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      if (error instanceof StaleTaskRunError) throw new Stale();
      throw error;
    }
  };
  const timeShort = () =>
    ctx.interrupted() || w.scenario.stopMarginMs + ctx.clock.now - ctx.startedAt >= ctx.timeLimitMs;
  const span = { task, run: ctx.runId, start: ctx.clock.now, end: ctx.clock.now };
  w.spans.push(span);
  for (; seq <= script.turns; seq++) {
    if (timeShort()) return "stopped";
    const turn = { run: ctx.runId, task, seq, epoch, ended: false };
    let calls = 0;
    for (let i = 0; i < script.callsPerTurn; i++) {
      // A model-call boundary: a stop is taken here, never in the middle of a call.
      if (calls > 0 && ctx.interrupted()) return "stopped";
      if (spent + w.scenario.callUsd > ts.ledger.allowanceUsd) return "allowance";
      if (calls === 0) w.turns.push(turn);
      w.paid.push({ run: ctx.runId, task, usd: w.scenario.callUsd });
      spent += w.scenario.callUsd;
      await ctx.sleep(
        typeof script.callMs === "number"
          ? script.callMs
          : w.latency(script.callMs, `${task}/${seq}/${i}`),
      );
      calls += 1;
      await stale(() => records_.called({ seq, calls, costUsd: calls * w.scenario.callUsd }));
    }
    // Commands: a runner's two cores are shared by the commands running on it at once.
    const running = (w.commandsRunning.get(runner) ?? 0) + 1;
    w.commandsRunning.set(runner, running);
    try {
      await ctx.sleep(script.commandMs * running);
    } finally {
      w.commandsRunning.set(runner, (w.commandsRunning.get(runner) ?? 1) - 1);
    }
    const code = await commitFiles(
      c,
      dir,
      { [`work/${task}/${seq}.txt`]: `task ${task} turn ${seq}\n` },
      `${task}: turn ${seq}`,
    );
    await stale(() =>
      records_.ended(
        {
          seq,
          calls,
          costUsd: calls * w.scenario.callUsd,
          sends: [{ to: LEAD, kind: "report", text: `turn ${seq} of ${task}` }],
          done: seq === script.turns,
        },
        code,
      ),
    );
    turn.ended = true;
    span.end = ctx.clock.now;
  }
  return "done";
}

// ---------------------------------------------------------------- the task run

/** The run's own token (over HTTP): GitHub's GITHUB_TOKEN, valid until its job completes. */
function tokenOf(w: World, runId: string, writer: string): string | null {
  return w.remote.issue(writer, () => w.actions.state(runId).status !== "completed");
}

/** The run's own clone of the remote, on a fresh runner: killed with it, faults as injected. */
const runClone = (w: World, ctx: RunContext, token: string | null) =>
  cloneFor(w.root, w.remote, `run-${ctx.runId}`, ctx.killSignal, w.pushFaults(ctx.runId), token);

export function taskStep(w: World) {
  return async (ctx: RunContext): Promise<Conclusion> => {
    const task = ctx.inputs.task!;
    const epoch = Number(ctx.inputs.epoch);
    const c = await runClone(w, ctx, tokenOf(w, ctx.runId, ctx.runId));
    await ctx.sleep(5_000);
    const refs = await fetchRefs(c);
    const jobHead = refs[JOB_REF];
    const state = jobHead ? await readState(c, jobHead) : null;
    // A stale epoch's run (the lead gave up on it, or the job ended) exits at once.
    if (state === null || state.state !== "EXECUTE" || state.tasks[task]?.ledger.epoch !== epoch)
      return "success";
    try {
      await taskTurns(w, ctx, c, state, task, epoch, ctx.runId, ctx.runId);
    } catch (error) {
      if (error instanceof Stale) return "success";
      throw error;
    }
    return "success";
  };
}

async function readState(c: Clone, sha: string): Promise<JobState | null> {
  const text = await readAt(c, sha, STATE_PATH);
  return text === null ? null : (JSON.parse(text) as JobState);
}

// ---------------------------------------------------------------- the lead's run

export function leadStep(w: World) {
  return async (ctx: RunContext): Promise<Conclusion> => {
    const writer = `lead:${ctx.runId}`;
    const token = tokenOf(w, ctx.runId, writer);
    const c = await runClone(w, ctx, token);
    await ctx.sleep(5_000);
    let refs = await fetchRefs(c);
    const jobDir = c.dir + "-job";
    let head = refs[JOB_REF] ?? null;
    if (head === null) {
      if (w.withdrawn) return "success";
      await git(c.dir, [
        "worktree",
        "add",
        "--quiet",
        "-b",
        "job",
        jobDir,
        refs["refs/heads/main"]!,
      ]);
      const sha = await commitFiles(
        c,
        jobDir,
        { [STATE_PATH]: JSON.stringify(initialState(w.scenario)), [BUS_PATH]: "" },
        "cfa #1: EXECUTE",
      );
      const out = await pushLeased(
        c.run,
        "origin",
        [{ ref: JOB_REF, to: sha, lease: { absent: true } }],
        {
          pushOptions: pushOpts(writer),
        },
      );
      if (out.kind === "moved") return "success";
      head = sha;
    } else {
      await git(c.dir, ["worktree", "add", "--quiet", "-b", "job", jobDir, head]);
    }
    const state = (await readState(c, head))!;
    if (state.state !== "EXECUTE") return "success";
    let bus = (await readAt(c, head, BUS_PATH)) ?? "";
    const extraUpdates: RefUpdate[] = [];

    /** Commits the state (and bus) and pushes it with the task refs in one atomic push. */
    const save = async (message: string): Promise<void> => {
      const sha = await commitFiles(
        c,
        jobDir,
        { [STATE_PATH]: JSON.stringify(state), [BUS_PATH]: bus },
        message,
      );
      const updates = [{ ref: JOB_REF, to: sha, lease: { sha: head! } }, ...extraUpdates.splice(0)];
      const out = await pushLeased(c.run, "origin", updates, { pushOptions: pushOpts(writer) });
      if (out.kind === "moved") throw new Stale();
      head = sha;
    };

    /** Every task's records, as the refs hold them now, folded into the state. */
    const foldAll = async () => {
      refs = await fetchRefs(c);
      for (const t of w.scenario.tasks)
        await foldTask(w, ctx, c, state, t.id, refs, jobDir, extraUpdates, (l) => (bus += l));
    };

    try {
      if (w.withdrawn) {
        withdraw(w, state, refs, extraUpdates);
        state.state = "WITHDRAWN";
        await save("cfa #1: WITHDRAWN");
        return "success";
      }
      for (;;) {
        // Fold every task's records first: what a dead run pushed counts before it is replaced.
        await foldAll();
        if (Object.values(state.tasks).every((t) => t.merged !== null)) {
          state.state = "DONE";
          await save("cfa #1: DONE");
          return "success";
        }
        const here: string[] = [];
        for (const t of w.scenario.tasks) {
          const ts = state.tasks[t.id]!;
          if (ts.done) continue;
          const step = await nextStep(w, ts);
          if (step === "wait") continue;
          if (step === "redispatch" || step === "run-here") ts.deaths += 1;
          if (totalCharged(ts.ledger) + w.scenario.callUsd > ts.ledger.allowanceUsd) {
            // The task's allowance is spent: the cap fails the job.
            state.state = "FAILED";
            await save("cfa #1: FAILED (cap)");
            return "success";
          }
          ts.ledger = { ...ts.ledger, epoch: ts.ledger.epoch + 1 };
          await fence(c, t.id, ts, refs, head!, extraUpdates);
          const callMs = typeof t.callMs === "number" ? t.callMs : (t.callMs[0] + t.callMs[1]) / 2;
          const turnMs = t.callsPerTurn * callMs + t.commandMs;
          const choice = chooseRunner({
            mode: w.scenario.mode,
            concurrent: Object.values(state.tasks).filter((x) => !x.done).length,
            commandShare: turnMs === 0 ? 0 : t.commandMs / turnMs,
            expectedMinutes: (t.turns * turnMs) / 60_000,
            leadMinutesLeft:
              (ctx.timeLimitMs - w.scenario.stopMarginMs - (ctx.clock.now - ctx.startedAt)) /
              60_000,
          });
          const fanOut = choice === "own-run" && fansOut(ts) && !w.taskJobMissing;
          ts.runner = fanOut ? "dispatching" : `lead:${ctx.runId}`;
          if (!fanOut) here.push(t.id);
        }
        await save("cfa #1: epochs");
        for (const t of w.scenario.tasks) {
          const ts = state.tasks[t.id]!;
          if (ts.runner !== "dispatching") continue;
          try {
            ts.runner = w.actions.dispatch("task", `cfa-${JOB}-${t.id}`, {
              job: String(JOB),
              task: t.id,
              epoch: String(ts.ledger.epoch),
            });
          } catch {
            // A 403 or no `task` job: the job runs its tasks here, said once.
            w.taskJobMissing = true;
            if (!state.notes.includes("single")) state.notes.push("single");
            ts.runner = `lead:${ctx.runId}`;
            here.push(t.id);
          }
        }
        await save("cfa #1: dispatched");
        if (here.length === 0) return "success"; // quiescent: the task runs wake the lead
        // The lead runs these tasks itself, in parallel, on its own runner.
        const ended = await ctx.clock.join(
          Promise.all(
            here.map((id) =>
              ctx.clock.strand(async () => {
                const tc = await cloneFor(
                  w.root,
                  w.remote,
                  `run-${ctx.runId}-${id}`,
                  ctx.killSignal,
                  w.pushFaults(ctx.runId),
                  token,
                );
                return taskTurns(
                  w,
                  ctx,
                  tc,
                  state,
                  id,
                  state.tasks[id]!.ledger.epoch,
                  writer,
                  ctx.runId,
                ).catch((e: unknown) => {
                  if (e instanceof Stale) return "stopped" as const;
                  throw e;
                });
              }),
            ),
          ),
        );
        if (ended.some((e) => e === "stopped") || ctx.interrupted()) {
          await foldAll();
          for (const id of here) state.tasks[id]!.runner = null;
          await save("cfa #1: stopped early");
          if (!w.withdrawn) w.dispatchWake();
          return "success";
        }
        for (const id of here) state.tasks[id]!.runner = null;
      }
    } catch (error) {
      if (error instanceof Stale) return "success";
      throw error;
    }
  };
}

async function nextStep(
  w: World,
  ts: TaskState,
): Promise<"wait" | "continue" | "redispatch" | "run-here"> {
  // Never dispatched (or killed before it was), or run by a lead whose run is over: a new
  // epoch, not a death.
  if (ts.runner === null || ts.runner === "dispatching" || ts.runner.startsWith("lead:"))
    return "continue";
  const step = watchTaskRun(ts, w.actions.state(ts.runner));
  return step === "fold-only" ? "wait" : step;
}

/** A new epoch's lease on the task branch: created, or a fence commit on it. */
async function fence(
  c: Clone,
  task: string,
  ts: TaskState,
  refs: Record<string, string>,
  jobHead: string,
  extra: RefUpdate[],
): Promise<void> {
  const ref = taskRef(task);
  const base = ts.created ? refs[ref] : jobHead;
  if (base === undefined) throw new Stale();
  const tree = (await c.run(["rev-parse", `${base}^{tree}`])).trim();
  const sha = (
    await c.run(["commit-tree", tree, "-p", base, "-m", `cfa #1: ${task} epoch ${ts.ledger.epoch}`])
  ).trim();
  extra.push({ ref, to: sha, lease: ts.created ? { sha: base } : { absent: true } });
  ts.created = true;
}

async function foldTask(
  w: World,
  ctx: RunContext,
  c: Clone,
  state: JobState,
  task: string,
  refs: Record<string, string>,
  jobDir: string,
  extra: RefUpdate[],
  appendBus: (line: string) => void,
): Promise<void> {
  const ts = state.tasks[task]!;
  const branchHead = refs[taskRef(task)];
  if (ts.merged !== null || branchHead === undefined) return;
  await ctx.sleep(w.scenario.foldMs);
  const records = await readRecords(c, branchHead);
  const r = foldTaskRecords(
    ts.ledger,
    records,
    { job: JOB, task, visible: new Set([LEAD]) },
    new Set(ts.refused),
  );
  ts.ledger = r.ledger;
  ts.refused.push(...r.refused.map((x) => x.key));
  for (const f of r.folded) {
    appendBus(
      JSON.stringify({ task, seq: f.seq, epoch: f.epoch, key: taskTurnKey(f), sends: f.sends }) +
        "\n",
    );
    if (f.done) ts.done = true;
  }
  if (!ts.done) return;
  const last = records
    .filter((x) => x.ended && x.done && x.epoch <= ts.ledger.epoch && x.seq === ts.ledger.folded)
    .sort((a, b) => b.epoch - a.epoch)[0];
  const code = last?.head ?? null;
  const script = w.scenario.tasks.find((t) => t.id === task)!;
  // Verify before merging: every turn's work is in the commit the record names.
  let ok = code !== null;
  for (let i = 1; ok && i <= script.turns; i++) {
    ok = (await readAt(c, code!, `work/${task}/${i}.txt`)) === `task ${task} turn ${i}\n`;
  }
  if (!ok) return;
  w.verified.add(code!);
  await git(jobDir, ["merge", "--quiet", "--no-ff", "--no-commit", code!]).catch(() => undefined);
  await git(jobDir, ["rm", "-r", "-q", "--cached", "--ignore-unmatch", TASK_TURNS_DIR]);
  await git(jobDir, ["clean", "-fdq", TASK_TURNS_DIR]);
  await git(jobDir, ["commit", "--quiet", "-m", `cfa #1: merge ${task}`]);
  ts.merged = code;
  extra.push({ ref: taskRef(task), to: null, lease: { sha: branchHead } });
}

/** WITHDRAWN: every task run cancelled, every task branch deleted under a lease. */
function withdraw(
  w: World,
  state: JobState,
  refs: Record<string, string>,
  extra: RefUpdate[],
): void {
  for (const [id, ts] of Object.entries(state.tasks)) {
    if (ts.runner !== null && !ts.runner.startsWith("lead:") && ts.runner !== "dispatching")
      w.actions.cancel(ts.runner);
    const sha = refs[taskRef(id)];
    if (sha !== undefined) extra.push({ ref: taskRef(id), to: null, lease: { sha } });
  }
}
