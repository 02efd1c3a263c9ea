// The engine's own cost per turn, model time excluded: a whole job
// (INTENT → PLAN → EXECUTE with two verified, merged tasks → DONE) on the local forge over
// real git, with a scripted model that answers at once. What remains is orchestration:
// folding, records, one commit per turn, worktrees, merges, comments.
//
// The figure is read against a floor measured in the same run — one bare
// `git commit` of a changed file, the least a turn's commit can cost on this machine — so a
// loaded machine inflates both alike. Target: per-turn overhead ≤ 20 floors (~200 ms at the
// ~10 ms a bare commit takes on a quiet 2-core machine). Every git process the engine starts
// is counted too (each costs 5–15 ms to start here): per turn, the number to keep small.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { wake } from "../src/engine/index.js";
import { gitStarted } from "../src/git/git-spawner.js";
import type { Model } from "../src/ports/model.js";
import { createScriptedModel } from "../src/adapters/scripted/index.js";
import { createLocalJob } from "../test/support/engine/local-job.js";
import { openJob, approveGates } from "../test/support/engine/person.js";
import { happyRecording } from "../test/support/engine/recordings.js";
import { state } from "../test/support/engine/inspect.js";
import { median, type BenchResult } from "./bench-result.js";

const RUNS = 5;

function timed(inner: Model): { model: Model; ms: () => number } {
  let ms = 0;
  return {
    model: {
      async complete(request, options) {
        const start = performance.now();
        try {
          return await inner.complete(request, options);
        } finally {
          ms += performance.now() - start;
        }
      },
    },
    ms: () => ms,
  };
}

/** Milliseconds of one bare `git commit -a` of a one-line change, median of `runs`. */
function bareCommitMs(runs: number): number {
  const dir = mkdtempSync(join(tmpdir(), "cfa-bench-floor-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: dir });
  try {
    git("init", "--quiet");
    writeFileSync(join(dir, "f"), "0\n");
    git("add", "f");
    git("commit", "--quiet", "-m", "0");
    const times: number[] = [];
    for (let i = 1; i <= runs; i++) {
      writeFileSync(join(dir, "f"), `${i}\n`);
      const start = performance.now();
      git("commit", "--quiet", "-a", "-m", String(i));
      times.push(performance.now() - start);
    }
    return median(times);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Git processes started, by subcommand (the first argument after the `-c` pairs). */
const bySubcommand = new Map<string, number>();

function subcommand(args: unknown): string {
  const list = Array.isArray(args) ? (args as string[]) : [];
  let i = 0;
  while (list[i] === "-c" || list[i] === "-C") i += 2;
  return list[i] ?? "?";
}

/**
 * Counts the git processes started while `work` runs: every command the engine's git runner
 * starts is published on the `cfa-bot:git` channel (git-spawner.ts), whichever process
 * spawns it.
 */
async function countingGit<T>(work: () => Promise<T>): Promise<{ value: T; gits: number }> {
  let gits = 0;
  const counting = (message: unknown) => {
    gits += 1;
    const name = subcommand((message as { args?: unknown }).args);
    bySubcommand.set(name, (bySubcommand.get(name) ?? 0) + 1);
  };
  gitStarted.subscribe(counting);
  try {
    return { value: await work(), gits };
  } finally {
    gitStarted.unsubscribe(counting);
  }
}

export async function run(): Promise<BenchResult[]> {
  const perTurn: number[] = [];
  const perJob: number[] = [];
  // The engine process's own CPU (its threads, not the git processes it waits on): what a
  // turn costs this process whatever the machine's load.
  const cpuPerTurn: number[] = [];
  const floors: number[] = [];
  let gitsPerTurn = 0;
  let turns = 0;
  for (let i = 0; i < RUNS; i++) {
    floors.push(bareCommitMs(5));
    const model = timed(createScriptedModel(happyRecording(), { source: "bench" }));
    const job = await createLocalJob({ model: model.model });
    try {
      await openJob(job);
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const { value: summary, gits } = await countingGit(() => approveGates(job, 3, wake));
      const wall = performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      if (summary.state !== "DONE") throw new Error(`bench: the job ended ${summary.state}`);
      turns = state(job).turns;
      gitsPerTurn = gits / turns;
      perJob.push(wall);
      perTurn.push((wall - model.ms()) / turns);
      cpuPerTurn.push((cpu.user + cpu.system) / 1000 / turns);
    } finally {
      await job.cleanup();
    }
  }
  const floor = median(floors);
  // Where the processes go (all runs together, per turn): the first thing to look at when the
  // per-turn figure grows.
  const top = [...bySubcommand]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, n]) => `${name}=${(n / (RUNS * turns)).toFixed(1)}`)
    .join(" ");
  return [
    {
      name: "orchestration overhead per turn (model time excluded)",
      unit: "ms/turn",
      median: median(perTurn),
      runs: RUNS,
      extra: {
        turns,
        min: Math.min(...perTurn),
        max: Math.max(...perTurn),
        own_cpu_ms_per_turn: median(cpuPerTurn),
      },
    },
    {
      name: "per-turn overhead in bare git commits (target ≤ 20)",
      unit: "× floor",
      median: median(perTurn) / floor,
      runs: RUNS,
      extra: { floor_ms: floor, git_processes_per_turn: gitsPerTurn },
    },
    {
      name: "git processes per turn, by subcommand (top 8)",
      unit: "processes",
      median: gitsPerTurn,
      runs: RUNS,
      extra: { top },
    },
    {
      name: "whole job, scripted model (INTENT → DONE, 2 tasks)",
      unit: "ms",
      median: median(perJob),
      runs: RUNS,
    },
  ];
}
