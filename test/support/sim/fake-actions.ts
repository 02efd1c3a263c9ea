// A local fake of the GitHub Actions API for the fan-out simulation, on a virtual clock:
// - dispatch returns a run id (the REST API's `return_run_details`,
//   https://github.blog/changelog/2026-02-19-workflow-dispatch-api-now-returns-run-ids);
// - concurrency groups with `cancel-in-progress: false`: one run in progress and one pending
//   per group, a newer pending run replacing (cancelling) the older
//   (https://docs.github.com/actions/using-jobs/using-concurrency);
// - runner slots (the plan's concurrent jobs) with a start-up delay before the first step;
// - the job's time limit (`timeout-minutes`) and a cancellation deliver SIGINT, then the
//   process is killed 10 s later (GitHub: SIGINT, SIGTERM 7.5 s later, kill 2.5 s after,
//   https://docs.github.com/en/actions/reference/workflow-cancellation-reference);
// - an `if: always()` last step, run after the main step whatever its end — unless the runner
//   itself was lost (a fault), which is when GitHub runs no step at all.
// Billed minutes: each job's time on its runner (start-up included), rounded up to the whole
// minute (https://docs.github.com/actions/monitoring-and-troubleshooting-workflows/viewing-job-execution-time).

import type { TaskRunState } from "../../../src/ports/task-runs.js";
import { Killed, type VirtualClock } from "./virtual-clock.js";

export type Conclusion = "success" | "failure" | "cancelled";

export interface RunContext {
  runId: string;
  inputs: Record<string, string>;
  clock: VirtualClock;
  /** False once the process was killed (kill -9, the runner lost): every step throws Killed. */
  alive(): boolean;
  /** SIGINT arrived (a cancellation, the time limit): stop at the next boundary. */
  interrupted(): boolean;
  /** Aborted when the process is killed: git commands in flight get SIGKILL. */
  killSignal: AbortSignal;
  sleep(ms: number): Promise<void>;
  startedAt: number;
  timeLimitMs: number;
}

export type Step = (ctx: RunContext) => Promise<Conclusion>;

export interface RunFaults {
  /** Kill the main step's process this long after it starts (virtual ms). */
  killAfterMs?: number;
  /** The runner is lost with the kill: no `if: always()` step. */
  loseRunner?: boolean;
}

interface Run {
  id: string;
  job: string;
  group: string;
  inputs: Record<string, string>;
  status: "pending" | "queued" | "in_progress" | "completed";
  conclusion: Conclusion | null;
  interrupted: boolean;
  kill: AbortController;
  dead: boolean;
  assignedAt: number | null;
  endedAt: number | null;
  faults: RunFaults;
}

export interface FakeActionsOptions {
  clock: VirtualClock;
  /** Concurrent jobs the plan allows. */
  slots: number;
  /** From a runner being assigned to the first step of the job (virtual ms). */
  startupMs: number;
  /** Each job's `timeout-minutes`, in ms. */
  timeLimitMs: Record<string, number>;
  /** The main step of each workflow job. */
  steps: Record<string, Step>;
  /** The `if: always()` step of each workflow job, if it has one. */
  always?: Record<string, (inputs: Record<string, string>) => void>;
  /** Faults for the next run of a job, drawn by the trial. */
  faultsFor?: (job: string, inputs: Record<string, string>) => RunFaults;
  /** Jobs the workflow does not have: dispatching one is refused as GitHub would. */
  missingJobs?: ReadonlySet<string>;
}

export class FakeActions {
  readonly runs = new Map<string, Run>();
  readonly dispatchLog: { runId: string; job: string; inputs: Record<string, string> }[] = [];
  /** Errors a step threw that were not a kill: a bug in the code under test, the trial fails. */
  readonly errors: Error[] = [];
  private nextId = 1000;

  constructor(private readonly o: FakeActionsOptions) {}

  /** POST …/dispatches with return_run_details: the new run's id. */
  dispatch(job: string, group: string, inputs: Record<string, string>): string {
    if (this.o.missingJobs?.has(job)) throw Object.assign(new Error("403"), { status: 403 });
    const id = String(this.nextId++);
    const run: Run = {
      id,
      job,
      group,
      inputs,
      status: "pending",
      conclusion: null,
      interrupted: false,
      kill: new AbortController(),
      dead: false,
      assignedAt: null,
      endedAt: null,
      faults: this.o.faultsFor?.(job, inputs) ?? {},
    };
    this.runs.set(id, run);
    this.dispatchLog.push({ runId: id, job, inputs });
    // A newer pending run replaces the older one in its group.
    for (const other of this.runs.values()) {
      if (other !== run && other.group === group && other.status === "pending") {
        this.complete(other, "cancelled");
      }
    }
    this.schedule();
    return id;
  }

  state(runId: string): TaskRunState {
    const r = this.runs.get(runId);
    if (!r) return { status: "missing" };
    return r.status === "completed"
      ? { status: "completed", conclusion: r.conclusion }
      : { status: "active" };
  }

  /** POST …/runs/{id}/cancel. */
  cancel(runId: string): void {
    const r = this.runs.get(runId);
    if (!r || r.status === "completed") return;
    if (r.status !== "in_progress") {
      this.complete(r, "cancelled");
      this.schedule();
      return;
    }
    this.interrupt(r);
  }

  active(job?: string): Run[] {
    return [...this.runs.values()].filter(
      (r) => r.status !== "completed" && (job === undefined || r.job === job),
    );
  }

  /** Billed runner minutes of every run so far, by workflow job. */
  billedMinutes(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.runs.values()) {
      if (r.assignedAt === null) continue;
      const end = r.endedAt ?? this.o.clock.now;
      out[r.job] = (out[r.job] ?? 0) + Math.max(1, Math.ceil((end - r.assignedAt) / 60_000));
    }
    return out;
  }

  /** Kill -9 of a run's process now (a fault). */
  killNow(runId: string, loseRunner = false): void {
    const r = this.runs.get(runId);
    if (!r || r.status !== "in_progress" || r.dead) return;
    if (loseRunner) r.faults.loseRunner = true;
    r.dead = true;
    r.kill.abort(new Killed());
  }

  private interrupt(r: Run): void {
    if (r.interrupted) return;
    r.interrupted = true;
    this.o.clock.at(10_000, () => this.killNow(r.id));
  }

  private complete(r: Run, conclusion: Conclusion): void {
    r.status = "completed";
    r.conclusion = conclusion;
    r.endedAt = this.o.clock.now;
  }

  private schedule(): void {
    const running = [...this.runs.values()].filter(
      (r) => r.status === "queued" || r.status === "in_progress",
    );
    // Pending → queued once its group has nothing queued or running.
    for (const r of this.runs.values()) {
      if (r.status !== "pending") continue;
      if (running.some((o) => o.group === r.group)) continue;
      r.status = "queued";
      running.push(r);
    }
    let busy = [...this.runs.values()].filter(
      (r) => r.assignedAt !== null && r.status !== "completed",
    ).length;
    for (const r of this.runs.values()) {
      if (busy >= this.o.slots) break;
      if (r.status !== "queued" || r.assignedAt !== null) continue;
      r.assignedAt = this.o.clock.now;
      busy += 1;
      this.o.clock.at(this.o.startupMs, () => this.start(r));
    }
  }

  private start(r: Run): void {
    if (r.status === "completed") return;
    r.status = "in_progress";
    const clock = this.o.clock;
    const limit = this.o.timeLimitMs[r.job] ?? 6 * 3600_000;
    clock.at(limit, () => {
      if (r.status === "in_progress") this.interrupt(r);
    });
    if (r.faults.killAfterMs !== undefined) {
      clock.at(r.faults.killAfterMs, () => this.killNow(r.id, r.faults.loseRunner === true));
    }
    const ctx: RunContext = {
      runId: r.id,
      inputs: r.inputs,
      clock,
      alive: () => !r.dead,
      interrupted: () => r.interrupted,
      killSignal: r.kill.signal,
      sleep: (ms) => clock.sleep(ms, () => !r.dead),
      startedAt: clock.now,
      timeLimitMs: limit,
    };
    void clock.strand(async () => {
      let conclusion: Conclusion;
      try {
        conclusion = await this.o.steps[r.job]!(ctx);
        if (r.dead) conclusion = "failure";
      } catch (error) {
        if (!(error instanceof Killed) && !r.dead) this.errors.push(error as Error);
        conclusion = "failure";
      }
      if (r.interrupted && conclusion === "failure") conclusion = "cancelled";
      // `if: always()`: the step runs after a failure or a cancellation, not on a lost runner.
      if (r.faults.loseRunner !== true) this.o.always?.[r.job]?.(r.inputs);
      this.complete(r, conclusion);
      this.schedule();
    });
  }
}
