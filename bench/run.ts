// `npm run bench`: runs every bench/*.bench.ts (each exports `run(): Promise<BenchResult[]>`)
// and prints one table. Numbers from a shared machine are indicative, not assertions.

import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BenchModule, BenchResult } from "./bench-result.js";

async function main(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const only = process.argv.slice(2);
  const files = (await readdir(here))
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  const rows: (BenchResult & { file: string })[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
    for (const result of await mod.run()) rows.push({ ...result, file });
  }
  printTable(rows);
}

function printTable(rows: (BenchResult & { file: string })[]): void {
  const table = rows.map((r) => [
    r.file,
    r.name,
    formatNumber(r.median),
    r.unit,
    String(r.runs),
    Object.entries(r.extra ?? {})
      .map(([k, v]) => `${k}=${typeof v === "number" ? formatNumber(v) : v}`)
      .join(" "),
  ]);
  const head = ["file", "benchmark", "median", "unit", "runs", "extra"];
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  console.log(line(head));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of table) console.log(line(row));
}

function formatNumber(n: number): string {
  if (Number.isInteger(n) || Math.abs(n) >= 1000) return Math.round(n).toLocaleString("en-US");
  return n.toFixed(2);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
