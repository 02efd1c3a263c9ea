// `npm run bench -- cli`: how long `cfa --help` and every verb's `--help` take to answer,
// against a bare `node -e ''` in the same run (the floor: Node's own start-up). A person
// types `cfa … --help` to find their way; it should answer at once, loading nothing the verb
// does not use (src/cli/main.ts: the verbs' modules hold their help, the work is imported when
// a verb runs). Target: each within 3× the floor. Runs are interleaved so load on the machine
// falls on all alike; medians of RUNS each.

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { COMMANDS } from "../src/cli/main.js";
import { median, type BenchResult } from "./bench-result.js";

const RUNS = Number(process.env.CFA_BENCH_RUNS ?? "11");
const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "cfa.js");

function timed(args: string[]): number {
  const start = performance.now();
  const done = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - start;
  if (done.status !== 0) {
    throw new Error(`${args.join(" ")} exited ${done.status}: ${done.stderr.toString()}`);
  }
  return ms;
}

export async function run(): Promise<BenchResult[]> {
  const cases: [string, string[]][] = [
    ["node -e ''", ["-e", ""]],
    ["cfa --help", [BIN, "--help"]],
    ...COMMANDS.map((c): [string, string[]] => [`cfa ${c.name} --help`, [BIN, c.name, "--help"]]),
  ];
  const times = new Map(cases.map(([name]) => [name, [] as number[]]));
  for (const [, args] of cases) timed(args); // warm the file cache
  for (let i = 0; i < RUNS; i++)
    for (const [name, args] of cases) times.get(name)!.push(timed(args));
  const floor = median(times.get("node -e ''")!);
  const rows = cases.map(([name]): BenchResult => {
    const ms = median(times.get(name)!);
    return {
      name,
      unit: "ms",
      median: ms,
      runs: RUNS,
      extra: name === "node -e ''" ? { floor: "yes" } : { ratio: ms / floor },
    };
  });
  const worst = Math.max(...rows.slice(1).map((r) => Number(r.extra?.ratio ?? 0)));
  rows.push({
    name: "worst --help against the floor",
    unit: "×",
    median: worst,
    runs: RUNS,
    extra: { target: "≤ 3", met: worst <= 3 ? "yes" : "no" },
  });
  return Promise.resolve(rows);
}
