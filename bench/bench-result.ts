// What every bench/*.bench.ts returns, and the helpers they share.

import { performance } from "node:perf_hooks";

export interface BenchResult {
  name: string;
  /** e.g. "entries/s": higher is better unless the unit says otherwise. */
  unit: string;
  median: number;
  runs: number;
  extra?: Record<string, string | number>;
}

export type BenchModule = { run(): Promise<BenchResult[]> };

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs `work` `runs` times after one warm-up; returns each run's milliseconds. */
export function timeRuns(runs: number, work: () => void): number[] {
  work();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    out.push(performance.now() - start);
  }
  return out;
}
