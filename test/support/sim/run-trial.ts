// One trial of the fan-out simulation: a job of random tasks, random faults, driven on the
// virtual clock until nothing is left to run; then every invariant of the fan-out (check()
// below) is checked against the ground truth (what was paid, which turns ran, what git holds).

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeActions, type RunFaults } from "./fake-actions.js";
import { createRemote, git, isZero } from "./sim-git.js";
import {
  BUS_PATH,
  JOB,
  JOB_REF,
  STATE_PATH,
  leadStep,
  taskStep,
  type Scenario,
  type World,
} from "./sim-job.js";
import { VirtualClock } from "./virtual-clock.js";

const MINUTE = 60_000;

/** A string's 32-bit FNV-1a hash: a seed for one named draw. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A small deterministic PRNG (mulberry32): a trial is replayed from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TrialFaults {
  /** Probability that a run's process is killed (kill -9) at a random moment. */
  kill: number;
  /** Of those, the runner lost too (no `if: always()` step). */
  loseRunner: number;
  /** Probability that a lead wake dispatch is lost, or sent twice. */
  lostWake: number;
  duplicateWake: number;
  /** Probability per push that its answer is lost after it landed, or that the run is killed mid-push. */
  lostAnswer: number;
  killMidPush: number;
  /** Withdraw the job at a random moment. */
  withdraw: boolean;
  /** The workflow has no `task` job (dispatch refused). */
  noTaskJob: boolean;
}

export interface TrialResult {
  seed: number;
  end: string;
  virtualMinutes: number;
  /** From the first dispatch to the last run's end. */
  wallMinutes: number;
  /** Each task's turns in one run: first call to last turn's end, in minutes (world.spans). */
  spans: { task: string; run: string; minutes: number }[];
  billed: Record<string, number>;
  /** Runs whose process was killed (kill -9, a lost runner, the kill after a cancellation). */
  kills: number;
  runs: number;
  violations: string[];
  paidUsd: number;
  chargedUsd: number;
  /** False when the trial hung and its invariants could not be checked. */
  checked: boolean;
  /** The faults drawn in this trial, by kind (a kill drawn may land after its run ended). */
  injected: Record<InjectedFault, number>;
}

export type InjectedFault =
  | "kill"
  | "loseRunner"
  | "lostWake"
  | "duplicateWake"
  | "lostAnswer"
  | "killMidPush"
  | "withdraw"
  | "noTaskJob";

export async function runTrial(
  seed: number,
  scenario: Scenario,
  faults: TrialFaults,
  options: { startupMs?: number; slots?: number; sweepMs?: number; http?: boolean } = {},
): Promise<TrialResult> {
  const random = prng(seed);
  const root = await mkdtemp(join(tmpdir(), "cfa-sim-"));
  let remoteClose: (() => Promise<void>) | undefined;
  try {
    const clock = new VirtualClock();
    const remote = await createRemote(root, { http: options.http === true });
    remoteClose = () => remote.close();
    const world = {} as World;
    const injected: Record<InjectedFault, number> = {
      kill: 0,
      loseRunner: 0,
      lostWake: 0,
      duplicateWake: 0,
      lostAnswer: 0,
      killMidPush: 0,
      withdraw: 0,
      noTaskJob: faults.noTaskJob ? 1 : 0,
    };
    const dispatchWake = () => {
      if (random() < faults.lostWake) {
        injected.lostWake++;
        return;
      }
      actions.dispatch("lead", `cfa-${JOB}`, { job: String(JOB) });
      if (random() < faults.duplicateWake) {
        injected.duplicateWake++;
        actions.dispatch("lead", `cfa-${JOB}`, { job: String(JOB) });
      }
    };
    const slowest = (t: Scenario["tasks"][number]) =>
      typeof t.callMs === "number" ? t.callMs : t.callMs[1];
    const horizon =
      3 *
        scenario.tasks.reduce(
          (a, t) => a + t.turns * (t.callsPerTurn * slowest(t) + t.commandMs),
          0,
        ) +
      2 * 3600_000;
    const faultsFor = (): RunFaults => {
      if (random() >= faults.kill) return {};
      const drawn = {
        killAfterMs: Math.floor(random() * Math.min(horizon / 4, 40 * MINUTE)),
        loseRunner: random() < faults.loseRunner,
      };
      injected.kill++;
      if (drawn.loseRunner) injected.loseRunner++;
      return drawn;
    };
    const actions: FakeActions = new FakeActions({
      clock,
      slots: options.slots ?? 20,
      startupMs: options.startupMs ?? 60_000,
      timeLimitMs: { lead: scenario.leadTimeLimitMs, task: scenario.taskTimeLimitMs },
      steps: { lead: leadStep(world), task: taskStep(world) },
      always: { task: () => dispatchWake() },
      faultsFor: () => faultsFor(),
      ...(faults.noTaskJob ? { missingJobs: new Set(["task"]) } : {}),
    });
    Object.assign(world, {
      root,
      remote,
      actions,
      scenario,
      withdrawn: false,
      paid: [],
      turns: [],
      verified: new Set<string>(),
      commandsRunning: new Map(),
      // Its own draw per call, apart from the faults' (which stay those of the seed).
      latency: ([min, max]: readonly [number, number], call: string) =>
        Math.round(min + prng(seed * 7919 + hashOf(call))() * (max - min)),
      spans: [],
      dispatchWake,
      taskJobMissing: false,
      pushFaults: (run: string) => ({
        beforePush: () => {
          if (random() < faults.killMidPush) {
            injected.killMidPush++;
            // A real SIGKILL to the git push in flight, a few real milliseconds in.
            setTimeout(() => actions.killNow(run), Math.floor(random() * 15));
          }
        },
        afterPush: () => {
          if (random() < faults.lostAnswer) {
            injected.lostAnswer++;
            throw new Error("the push's answer was lost");
          }
        },
      }),
    } satisfies Partial<World>);

    // The job starts: the label's dispatch.
    actions.dispatch("lead", `cfa-${JOB}`, { job: String(JOB) });
    // The hourly sweep wakes a live job nobody is working on.
    const sweepMs = options.sweepMs ?? 60 * MINUTE;
    const sweep = () => {
      void clock.strand(async () => {
        const state = await git(remote.bare, ["show", `${JOB_REF}:${STATE_PATH}`]).catch(
          () => null,
        );
        const live = state === null || JSON.parse(state).state === "EXECUTE";
        if (!live) return;
        if (actions.active("lead").length === 0)
          actions.dispatch("lead", `cfa-${JOB}`, { job: String(JOB) });
        clock.at(sweepMs, sweep);
      });
    };
    clock.at(sweepMs, sweep);
    if (faults.withdraw) {
      clock.at(Math.floor(random() * horizon * 0.5), () => {
        injected.withdraw++;
        world.withdrawn = true;
        for (const r of actions.active()) actions.cancel(r.id);
        actions.dispatch("lead", `cfa-${JOB}`, { job: String(JOB) });
      });
    }
    // A trial that stops making progress in real time is a deadlock: report it, do not hang.
    let hung = false;
    const end = await Promise.race([
      clock.drive(48 * 3600_000),
      new Promise<number>((resolve) =>
        setTimeout(() => {
          hung = true;
          resolve(clock.now);
        }, 90_000).unref(),
      ),
    ]);
    if (process.env.CFA_SIM_DEBUG) {
      for (const r of actions.runs.values())
        console.log(
          r.id,
          r.job,
          JSON.stringify(r.inputs),
          r.status,
          r.conclusion,
          r.assignedAt,
          r.endedAt,
          JSON.stringify(r.faults),
        );
      console.log(await git(remote.bare, ["show", `${JOB_REF}:${STATE_PATH}`]).catch(() => null));
    }
    const violations = hung
      ? [`hung at virtual minute ${Math.round(end / MINUTE)}`]
      : await check(world, root);
    violations.push(...actions.errors.map((e) => `a step threw: ${e.message}`));
    const state = await git(remote.bare, ["show", `${JOB_REF}:${STATE_PATH}`]).catch(() => null);
    const parsed = state
      ? (JSON.parse(state) as {
          state: string;
          tasks: Record<string, { ledger: { charged: Record<string, number> } }>;
        })
      : null;
    const chargedUsd = parsed
      ? Object.values(parsed.tasks).reduce(
          (a, t) => a + Object.values(t.ledger.charged).reduce((x, y) => x + y, 0),
          0,
        )
      : 0;
    const paidUsd = world.paid.reduce((a, p) => a + p.usd, 0);
    return {
      seed,
      end: parsed?.state ?? "none",
      virtualMinutes: end / MINUTE,
      wallMinutes: Math.max(0, ...[...actions.runs.values()].map((r) => r.endedAt ?? 0)) / MINUTE,
      spans: world.spans.map((x) => ({
        task: x.task,
        run: x.run,
        minutes: (x.end - x.start) / MINUTE,
      })),
      billed: actions.billedMinutes(),
      kills: [...actions.runs.values()].filter((r) => r.dead).length,
      runs: actions.runs.size,
      violations,
      paidUsd,
      chargedUsd,
      checked: !hung,
      injected,
    };
  } finally {
    await remoteClose?.();
    // Retried: a git child of a strand abandoned at its kill may still be exiting.
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}

async function check(w: World, root: string): Promise<string[]> {
  const v: string[] = [];
  const bare = w.remote.bare;
  const show = (rev: string) => git(bare, ["show", rev]).catch(() => null);
  const stateText = await show(`${JOB_REF}:${STATE_PATH}`);
  const state = stateText ? (JSON.parse(stateText) as { state: string }) : null;
  // 1. The job ends DONE or WITHDRAWN.
  // Withdrawn before its first run wrote anything: nothing to end.
  if (state === null && w.withdrawn) return v;
  if (state === null || !["DONE", "WITHDRAWN"].includes(state.state))
    v.push(`the job ended ${state?.state ?? "without a job branch"}`);
  // 2. Each task turn folded exactly once (and every turn of a DONE job's tasks).
  const bus = ((await show(`${JOB_REF}:${BUS_PATH}`)) ?? "").split("\n").filter((l) => l !== "");
  const folded = new Map<string, number>();
  for (const line of bus) {
    const e = JSON.parse(line) as { task: string; seq: number };
    const k = `${e.task}/${e.seq}`;
    folded.set(k, (folded.get(k) ?? 0) + 1);
  }
  for (const [k, n] of folded) if (n !== 1) v.push(`turn ${k} folded ${n} times`);
  if (state?.state === "DONE") {
    for (const t of w.scenario.tasks)
      for (let i = 1; i <= t.turns; i++)
        if (!folded.has(`${t.id}/${i}`)) v.push(`turn ${t.id}/${i} never folded`);
  }
  // 3. Each branch written only by its lease holder.
  const log = await w.remote.readLog();
  const epochOf = new Map<string, number>();
  const dispatched = new Map(w.actions.dispatchLog.map((d) => [d.runId, d]));
  for (const e of log) {
    if (!e.ref.startsWith(`refs/heads/cfa/${JOB}`)) continue;
    if (e.writer !== e.claimed)
      v.push(`${e.ref} pushed with ${e.writer}'s token by a run saying it is ${e.claimed}`);
    if (e.ref === JOB_REF) {
      if (!e.writer.startsWith("lead:")) v.push(`${e.ref} written by ${e.writer}`);
      continue;
    }
    const task = e.ref.replace(`refs/heads/cfa/${JOB}-`, "");
    if (e.writer.startsWith("lead:")) {
      // The lead creates, fences (a new epoch) and deletes; between, the epoch's holder writes.
      const m = isZero(e.new)
        ? null
        : await git(bare, ["log", "-1", "--format=%s", e.new]).catch(() => "");
      const fence = m?.match(/epoch (\d+)/);
      if (fence) epochOf.set(task, Number(fence[1]));
      continue;
    }
    const d = dispatched.get(e.writer);
    if (!d || d.job !== "task" || d.inputs.task !== task) {
      v.push(`${e.ref} written by ${e.writer}, not a run of its task`);
    } else if (Number(d.inputs.epoch) !== epochOf.get(task) || e.epoch !== epochOf.get(task)) {
      v.push(
        `${e.ref} written by ${e.writer} of epoch ${d.inputs.epoch} while epoch ${epochOf.get(task)} held it`,
      );
    }
  }
  // 4. No task branch survives WITHDRAWN (nor DONE).
  const refs = await git(bare, ["for-each-ref", "--format=%(refname)", "refs/heads/"]);
  const left = refs.split("\n").filter((r) => r.startsWith(`refs/heads/cfa/${JOB}-`));
  if (state && ["WITHDRAWN", "DONE"].includes(state.state) && left.length > 0)
    v.push(`task branches left after ${state.state}: ${left.join(", ")}`);
  // 5. Every merge brought a verified commit, holding every turn's work.
  if (stateText !== null) {
    const merges = (await git(bare, ["log", "--merges", "--format=%H %P", JOB_REF]))
      .split("\n")
      .filter((l) => l !== "");
    for (const line of merges) {
      const [, , second] = line.split(" ");
      if (!second || !w.verified.has(second)) v.push(`merge of an unverified commit ${second}`);
    }
    if (state?.state === "DONE") {
      for (const t of w.scenario.tasks)
        for (let i = 1; i <= t.turns; i++) {
          const text = await show(`${JOB_REF}:work/${t.id}/${i}.txt`);
          if (text !== `task ${t.id} turn ${i}\n`)
            v.push(`work/${t.id}/${i}.txt missing from the job branch`);
        }
    }
  }
  // 6. Lost turns ≤ processes killed: a turn is lost only in a run that was killed, at most
  // one per task that run had going (a lead running tasks itself has one going per task);
  // a run that was not killed leaves a turn unfinished only when it stopped early, at most one
  // per task, and the task's next run does it again.
  const runs = w.actions.runs;
  const unended = w.turns.filter((t) => !t.ended);
  const lost = unended.filter((t) => runs.get(t.run)?.dead === true).length;
  const killedStrands = new Set(
    w.turns.filter((t) => runs.get(t.run)?.dead === true).map((t) => `${t.run}/${t.task}`),
  ).size;
  if (lost > killedStrands)
    v.push(`${lost} turns lost in killed runs with ${killedStrands} tasks going`);
  const perStrand = new Map<string, number>();
  for (const t of unended)
    perStrand.set(`${t.run}/${t.task}`, (perStrand.get(`${t.run}/${t.task}`) ?? 0) + 1);
  for (const [k, n] of perStrand)
    if (n > 1) v.push(`${n} unfinished turns in one run of one task (${k})`);
  for (const t of unended) {
    const r = runs.get(t.run);
    if (r && !r.dead && !r.interrupted && r.conclusion !== "success")
      v.push(
        `turn ${t.task}/${t.seq} left unfinished by run ${t.run}, which was neither killed nor stopped`,
      );
  }
  // 7. Cost ≤ cap + one call per run: what was paid, against the tasks' allowances.
  const paid = w.paid.reduce((a, p) => a + p.usd, 0);
  const cap = w.scenario.allowanceUsd * w.scenario.tasks.length;
  const slack = w.actions.runs.size * w.scenario.callUsd;
  if (paid > cap + slack + 1e-9) v.push(`paid ${paid} > cap ${cap} + ${slack}`);
  for (const t of w.scenario.tasks) {
    const p = w.paid.filter((x) => x.task === t.id).reduce((a, x) => a + x.usd, 0);
    const runsOfTask = new Set(w.paid.filter((x) => x.task === t.id).map((x) => x.run)).size;
    if (p > w.scenario.allowanceUsd + runsOfTask * w.scenario.callUsd + 1e-9)
      v.push(`task ${t.id} paid ${p} > allowance ${w.scenario.allowanceUsd} + one call per run`);
  }
  void root;
  return v;
}
