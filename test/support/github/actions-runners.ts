// GitHub Actions as processes of their own, for the multi-process tests of tasks in runs of
// their own: every dispatch the fake GitHub takes (test/support/github/fake-github.ts, served
// over HTTP) becomes a run of the workflow template's `work` job (inputs without a task) or
// `task` job (job, task, epoch), started on one of `slots` runners as templates/workflows/cfa.yml
// and action.yml start it — a fresh checkout (actions/checkout), the released worker
// (`node dist/cfa-worker.mjs`) with the environment Actions and the action set, and for a task
// run its `if: always()` step that wakes the job's lead. What GitHub does, modelled:
// - a concurrency group per job (`cfa-<N>`, `cfa-<N>-task-<task>`) with `cancel-in-progress:
//   false`: one run in progress, one pending, a newer pending run replacing (cancelling) the
//   older (https://docs.github.com/actions/using-jobs/using-concurrency);
// - a GITHUB_TOKEN per run, valid until its job completes ("The GITHUB_TOKEN expires when a
//   job finishes", https://docs.github.com/actions/concepts/security/github_token): git over
//   HTTP refuses it afterwards;
// - a run completes only once its last step has ended; a run dispatched from a run's last step
//   starts after that run completed (a new runner's start-up — checkout, setup-node, apt — is
//   far longer than a finished job's post steps);
// - a cancel sends the worker SIGINT (https://docs.github.com/en/actions/reference/workflow-cancellation-reference),
//   and `if: always()` steps run after a failure or a cancellation;
// - faults: a run's worker killed (SIGKILL) once its n-th push has landed.
// Tests wait on the pool's events (`idle`), never on time.

import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeGitHub } from "./fake-github.js";
import { FULL } from "./fake-github.js";
import type { GitHttpRequest } from "./git-http-server.js";

export type Conclusion = "success" | "failure" | "cancelled";

export interface PoolRun {
  /** GitHub's run id (a dispatch that asked for it), or the pool's own. */
  id: number;
  job: "work" | "task";
  inputs: Record<string, string>;
  group: string;
  status: "pending" | "queued" | "in_progress" | "completed";
  conclusion: Conclusion | null;
  token: string;
  /** The job branch's state.json as the forge held it when the run was dispatched. */
  stateAtDispatch: string | null;
  /** Pushes that landed with this run's token. */
  pushes: number;
  killed: boolean;
  cancelled: boolean;
  /** Everything its processes printed, step by step. */
  output: string[];
  /** performance.now() of each moment. */
  at: { dispatched: number; started?: number; workerEnded?: number; completed?: number };
  /** The run whose last step dispatched this one: it starts once that one completed. */
  after: number | null;
  phase: "worker" | "always" | null;
  child: ChildProcess | null;
}

export interface RunnerPoolOptions {
  github: FakeGitHub;
  /** The fake GitHub's API as the workers reach it (GITHUB_API_URL). */
  apiUrl: string;
  /** A fresh checkout of the repository whose `origin` is GitHub's git side over HTTP. */
  checkout(name: string): string;
  /** Where runners keep their temp folders and event files. */
  root: string;
  /** The released worker (dist/cfa-worker.mjs of a release tree). */
  worker: string;
  /** Concurrent jobs the plan allows. */
  slots: number;
  /** More of every run's environment (the model's key and base URL). */
  env: Record<string, string>;
}

export interface RunnerPool {
  readonly runs: PoolRun[];
  /** A run of the `work` job for `job`, as the app dispatches it after a person's event. */
  dispatchLead(job: number): void;
  /** Resolves once no run is pending, queued or in progress. */
  idle(): Promise<void>;
  /** Kills (SIGKILL) the worker of the first run `matches` once its `pushes`-th push landed. */
  killAfterPushes(matches: (run: PoolRun) => boolean, pushes: number): void;
  /** Whether GitHub takes this token now (for git over HTTP). */
  tokenLive(token: string): boolean;
  /** The git server's word on each request it answered (wire to its `answered`). */
  gitAnswered(request: GitHttpRequest): void;
  /** Kills whatever still runs. */
  close(): Promise<void>;
}

export function startRunnerPool(o: RunnerPoolOptions): RunnerPool {
  const runs: PoolRun[] = [];
  const faults: { matches: (run: PoolRun) => boolean; pushes: number; done: boolean }[] = [];
  let ownIds = 900_000;
  let idleWaiters: (() => void)[] = [];

  const settled = () => runs.every((r) => r.status === "completed");
  const wakeIdle = () => {
    if (!settled()) return;
    const waiting = idleWaiters;
    idleWaiters = [];
    for (const w of waiting) w();
  };

  const jobState = (job: string): string | null => {
    try {
      return execFileSync(
        "git",
        ["-C", o.github.bare, "show", `refs/heads/cfa/${job}:.cfa/jobs/${job}/state.json`],
        { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
      );
    } catch {
      return null;
    }
  };

  const dispatched = (d: {
    inputs: Record<string, string>;
    runId: number | null;
    token: string;
  }) => {
    const task = d.inputs["task"] ?? "";
    const jobNumber = d.inputs["job"] ?? "";
    const from = runs.find((r) => r.token === d.token && r.status !== "completed");
    const run: PoolRun = {
      id: d.runId ?? ownIds++,
      job: task === "" ? "work" : "task",
      inputs: { ...d.inputs },
      group: task === "" ? `cfa-${jobNumber}` : `cfa-${jobNumber}-task-${task}`,
      status: "pending",
      conclusion: null,
      token: `ghs_run${randomBytes(12).toString("hex")}`,
      stateAtDispatch: jobState(jobNumber),
      pushes: 0,
      killed: false,
      cancelled: false,
      output: [],
      at: { dispatched: performance.now() },
      after: from !== undefined && from.phase === "always" ? from.id : null,
      phase: null,
      child: null,
    };
    // A newer pending run replaces the older one in its group.
    for (const other of runs)
      if (other.group === run.group && other.status === "pending") complete(other, "cancelled");
    runs.push(run);
    // After the dispatch's answer went out, as GitHub queues a run after answering.
    setImmediate(schedule);
  };
  o.github.onDispatch = dispatched;
  o.github.onCancel = (id) => {
    const run = runs.find((r) => r.id === id);
    if (run === undefined || run.status === "completed") return;
    run.cancelled = true;
    if (run.status !== "in_progress") {
      complete(run, "cancelled");
      return;
    }
    if (run.phase === "worker") run.child?.kill("SIGINT");
  };

  const githubRun = (run: PoolRun) => o.github.runs.get(run.id);

  function complete(run: PoolRun, conclusion: Conclusion): void {
    run.status = "completed";
    run.conclusion = conclusion;
    run.phase = null;
    run.at.completed = performance.now();
    const gh = githubRun(run);
    if (gh !== undefined && gh.status !== "completed") {
      gh.status = "completed";
      gh.conclusion = conclusion;
    }
    setImmediate(() => {
      schedule();
      wakeIdle();
    });
  }

  function schedule(): void {
    const busy = (r: PoolRun) => r.status === "queued" || r.status === "in_progress";
    for (const r of runs) {
      if (r.status !== "pending") continue;
      if (runs.some((x) => x !== r && x.group === r.group && busy(x))) continue;
      r.status = "queued";
    }
    let running = runs.filter((r) => r.status === "in_progress").length;
    for (const r of runs) {
      if (running >= o.slots) break;
      if (r.status !== "queued") continue;
      const after = r.after === null ? undefined : runs.find((x) => x.id === r.after);
      if (after !== undefined && after.status !== "completed") continue;
      running += 1;
      start(r);
    }
    wakeIdle();
  }

  function step(run: PoolRun, env: Record<string, string>, done: (code: number | null) => void) {
    const child = spawn(process.execPath, [o.worker], {
      cwd: env["GITHUB_WORKSPACE"],
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    run.child = child;
    const keep = (c: Buffer) =>
      run.output.push(
        ...c
          .toString()
          .split("\n")
          .filter((l) => l),
      );
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("exit", (code) => {
      run.child = null;
      done(code);
    });
  }

  function start(run: PoolRun): void {
    run.status = "in_progress";
    run.at.started = performance.now();
    const gh = githubRun(run);
    if (gh !== undefined) gh.status = "in_progress";
    const dir = join(o.root, `runner-${run.id}`);
    mkdirSync(dir, { recursive: true });
    const event = join(dir, "event.json");
    writeFileSync(event, JSON.stringify({ inputs: run.inputs }));
    const workspace = o.checkout(`run-${run.id}`);
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      GITHUB_REPOSITORY: FULL,
      GITHUB_API_URL: o.apiUrl,
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_EVENT_NAME: "workflow_dispatch",
      GITHUB_EVENT_PATH: event,
      GITHUB_WORKFLOW_REF: `${FULL}/.github/workflows/cfa.yml@refs/heads/main`,
      GITHUB_RUN_ID: String(run.id),
      GITHUB_RUN_ATTEMPT: "1",
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: join(dir, "temp"),
      GITHUB_TOKEN: run.token,
      CFA_BOT_LOGIN: "github-actions[bot]",
      ...o.env,
      // action.yml's env: the inputs the template passes (templates/workflows/cfa.yml).
      CFA_JOB: run.inputs["job"] ?? "",
      CFA_TASK: run.inputs["task"] ?? "",
      CFA_EPOCH: run.inputs["epoch"] ?? "",
      CFA_WAKE_LEAD: "",
    };
    mkdirSync(env.RUNNER_TEMP, { recursive: true });
    run.phase = "worker";
    step(run, env, (code) => {
      run.at.workerEnded = performance.now();
      const conclusion: Conclusion = run.cancelled
        ? "cancelled"
        : code === 0 && !run.killed
          ? "success"
          : "failure";
      if (run.job === "work") {
        complete(run, conclusion);
        return;
      }
      // The task job's last step, `if: always()`: the lead's wake, with no model key.
      run.phase = "always";
      step(
        run,
        { ...env, CFA_TASK: "", CFA_EPOCH: "", CFA_WAKE_LEAD: "true", ANTHROPIC_API_KEY: "" },
        () => complete(run, conclusion),
      );
    });
  }

  return {
    runs,
    dispatchLead(job) {
      dispatched({ inputs: { job: String(job) }, runId: null, token: "" });
    },
    idle() {
      if (settled()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    killAfterPushes(matches, pushes) {
      faults.push({ matches, pushes, done: false });
    },
    tokenLive(token) {
      return runs.some((r) => r.token === token && r.status === "in_progress");
    },
    gitAnswered(request) {
      if (request.method !== "POST" || request.service !== "git-receive-pack") return;
      if (request.status !== 200) return;
      const run = runs.find((r) => r.token === request.token);
      if (run === undefined) return;
      run.pushes += 1;
      // One fault per run: the first that matches kills it.
      const fault = faults.find(
        (f) => !f.done && f.matches(run) && run.pushes >= f.pushes && run.phase === "worker",
      );
      if (fault === undefined || run.killed) return;
      fault.done = true;
      run.killed = true;
      run.child?.kill("SIGKILL");
    },
    async close() {
      const live = runs.filter((r) => r.child !== null);
      await Promise.all(
        live.map(
          (r) =>
            new Promise<void>((resolve) => {
              r.child!.once("exit", () => resolve());
              r.child!.kill("SIGKILL");
            }),
        ),
      );
    },
  };
}
