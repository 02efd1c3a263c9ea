// `npm run bench -- demo`: the demo against its floor, measured in the same run. The demo
// (`cfa demo`, as a person runs it) replays a whole job: its cost besides the engine's own
// work is the commits it makes and the commands its agents run. The floor is that work done
// plainly: as many commits made with plain git (write a file, `git add`, `git commit`) as the
// demo's repository holds beyond its first, plus each command the agents ran (`npm test`…),
// run directly in the job's final tree, one after another. Both counts are read from what
// the demo did (its refs, its transcripts), not from a number written here, so a re-recorded
// demo is measured by what it does. Target: the demo within 1.5× the floor; median of RUNS
// (interleaved with the floor's runs, so load falls on both alike).

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, type BenchResult } from "./bench-result.js";

const RUNS = Number(process.env.CFA_BENCH_RUNS ?? "5");
const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "cfa.js");

interface DemoWork {
  ms: number;
  commits: number;
  commands: string[][];
  /** The job's final tree, where the floor runs the commands. */
  tree: string;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** `cfa demo` as a person runs it (its temporary folder removed at its end): its wall time. */
function demoAsRun(): number {
  const cache = mkdtempSync(join(tmpdir(), "cfa-bench-cache-"));
  const start = performance.now();
  const done = spawnSync(process.execPath, [BIN, "demo"], {
    env: { ...process.env, XDG_CACHE_HOME: cache },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ms = performance.now() - start;
  if (done.status !== 0)
    throw new Error(`cfa demo exited ${done.status}: ${done.stderr.toString()}`);
  rmSync(cache, { recursive: true, force: true });
  return ms;
}

/** One `cfa demo --dir`, kept: what the demo did (its commits, its agents' commands). */
function demoWork(): DemoWork {
  const dir = mkdtempSync(join(tmpdir(), "cfa-bench-demo-"));
  const cache = mkdtempSync(join(tmpdir(), "cfa-bench-cache-"));
  const start = performance.now();
  const done = spawnSync(process.execPath, [BIN, "demo", "--dir", join(dir, "out")], {
    env: { ...process.env, XDG_CACHE_HOME: cache },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ms = performance.now() - start;
  if (done.status !== 0)
    throw new Error(`cfa demo exited ${done.status}: ${done.stderr.toString()}`);
  const repo = join(dir, "out", "repo");
  const commits = Number(git(repo, "rev-list", "--count", "--all").trim()) - 1;
  const commands: string[][] = [];
  const transcripts = git(repo, "ls-tree", "-r", "--name-only", "cfa/1", ".cfa/jobs/1/instances")
    .split("\n")
    .filter((f) => f.endsWith(".jsonl"));
  for (const file of transcripts) {
    for (const line of git(repo, "show", `cfa/1:${file}`).split("\n")) {
      if (line.trim() === "") continue;
      const entry = JSON.parse(line) as {
        type?: string;
        message?: {
          role?: string;
          content?: { type: string; name?: string; input?: { argv?: string[] } }[];
        };
      };
      if (entry.type !== "message" || entry.message?.role !== "assistant") continue;
      for (const block of entry.message.content ?? []) {
        if (block.type === "tool_use" && block.name === "run_command" && block.input?.argv)
          commands.push(block.input.argv);
      }
    }
  }
  const tree = join(dir, "tree");
  execFileSync("sh", [
    "-c",
    `mkdir -p "${tree}" && git -C "${repo}" archive cfa/1 | tar -x -C "${tree}"`,
  ]);
  rmSync(cache, { recursive: true, force: true });
  return { ms, commits, commands, tree };
}

/** The same work done plainly: `commits` commits with git, then each command in `tree`. */
function floor(work: DemoWork): number {
  const repo = mkdtempSync(join(tmpdir(), "cfa-bench-floor-"));
  git(repo, "init", "--quiet", "--initial-branch=main");
  git(repo, "config", "user.name", "b");
  git(repo, "config", "user.email", "b@example.com");
  const start = performance.now();
  for (let i = 0; i < work.commits; i++) {
    writeFileSync(join(repo, `f${i % 8}.txt`), `${i}\n`);
    git(repo, "add", "--all");
    git(repo, "commit", "--quiet", "-m", `commit ${i}`);
  }
  for (const [program, ...args] of work.commands) {
    const ran = spawnSync(program!, args, { cwd: work.tree, stdio: "ignore" });
    if (ran.status !== 0) throw new Error(`${program} ${args.join(" ")} failed in ${work.tree}`);
  }
  const ms = performance.now() - start;
  rmSync(repo, { recursive: true, force: true });
  return ms;
}

export async function run(): Promise<BenchResult[]> {
  const work = demoWork();
  const demos: number[] = [];
  const floors: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ms = demoAsRun();
    const plain = floor(work);
    demos.push(ms);
    floors.push(plain);
    ratios.push(ms / plain);
  }
  rmSync(join(work.tree, ".."), { recursive: true, force: true });
  const last = work;
  const counts = {
    commits: last.commits,
    commands: last.commands.map((c) => c.join(" ")).join(", ") || "none",
  };
  const rows: BenchResult[] = [
    {
      name: "cfa demo",
      unit: "ms",
      median: median(demos),
      runs: RUNS,
      extra: { commits: counts.commits },
    },
    {
      name: "floor: its commits with git + its commands run directly",
      unit: "ms",
      median: median(floors),
      runs: RUNS,
      extra: { commands: last?.commands.length ?? 0 },
    },
    {
      name: "demo against its floor",
      unit: "×",
      median: median(ratios),
      runs: RUNS,
      extra: {
        target: "≤ 1.5",
        met: median(ratios) <= 1.5 ? "yes" : "no",
        each: ratios.map((r) => r.toFixed(2)).join(" "),
      },
    },
  ];
  return Promise.resolve(rows);
}
