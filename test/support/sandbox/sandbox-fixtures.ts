// Shared fixtures for the sandbox integration tests.

import { accessSync, constants, existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { it } from "vitest";
import type { CommandRequest } from "../../../src/ports/sandbox.js";
import { bound } from "../time-bound.js";

/** The installed bwrap, or null: the bwrap tests are skipped (visibly) only then. */
export function installedBwrap(): string | null {
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(folder || ".", "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * The installed bwrap where a system npm (in /usr/bin or /usr/local/bin) is installed too, or
 * null: the tests that run npm in the sandbox need both and are skipped (visibly) otherwise.
 */
export function bwrapWithNpm(): string | null {
  const npm = ["/usr/bin/npm", "/usr/local/bin/npm"].find((file) => existsSync(file));
  return npm === undefined ? null : installedBwrap();
}

export interface BwrapSuite {
  /** The bwrap to run, or null: the suite's tests are skipped. */
  bwrapPath: string | null;
  /** `it`, skipped where there is no bwrap to run. */
  bit: ReturnType<typeof it.skipIf>;
  /** For the suite's title: " [skipped: why]" where it is skipped, so that the report shows it; else "". */
  skipped: string;
}

/**
 * What a suite that runs the real sandbox starts with: its tests are skipped, visibly, only
 * where `bwrapPath` is null (by default: bubblewrap is not installed); they never pass vacuously.
 */
export function bwrapSuite(
  bwrapPath = installedBwrap(),
  why = "bubblewrap (bwrap) is not installed",
): BwrapSuite {
  return {
    bwrapPath,
    bit: it.skipIf(bwrapPath === null),
    skipped: bwrapPath === null ? ` [skipped: ${why}]` : "",
  };
}

/**
 * A temp folder for fixtures. Prefer /var/tmp: the sandbox gives /tmp a private tmpfs, so
 * under /tmp every path outside the workspace is hidden anyway and the read-only root and
 * the home/checkout masks would go untested.
 */
export async function fixtureRoot(prefix: string): Promise<string> {
  let base = os.tmpdir();
  try {
    accessSync("/var/tmp", constants.W_OK);
    base = "/var/tmp";
  } catch {
    // fall back to the ordinary temp folder
  }
  return realpath(await mkdtemp(path.join(base, prefix)));
}

export function isUnderTmp(file: string): boolean {
  return file === "/tmp" || file.startsWith("/tmp/");
}

/** A unique sleep length, so a leftover process can be found by its command line. */
export function markerSeconds(): string {
  return `30.${String(process.pid % 1000).padStart(3, "0")}${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
}

/** Host pids whose command line contains `marker`. */
export async function processesWith(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmdline.split("\0").includes(marker)) pids.push(Number(entry));
  }
  return pids;
}

/** Waits until no process carries `marker` (killed processes take a moment to be reaped). */
export async function waitUntilGone(marker: string, deadlineMs = 10_000): Promise<number[]> {
  const until = Date.now() + bound(deadlineMs);
  let left = await processesWith(marker);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = await processesWith(marker);
  }
  return left;
}

/** A node one-liner that tries a TCP connection and prints `connected` or `failed <code>`. */
export function connectScript(host: string, port: number): string {
  return `const s = require("net").connect({ host: ${JSON.stringify(host)}, port: ${port} });
s.on("connect", () => { console.log("connected"); process.exit(0); });
s.on("error", (e) => { console.log("failed " + e.code); process.exit(3); });
setTimeout(() => { console.log("failed timeout"); process.exit(4); }, 5000);`;
}

/** The system's PATH inside a sandbox (and for an unsandboxed command). */
export const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * A command request in workspace `ws`: the system PATH, HOME the workspace, no network, a
 * 30 s timeout and 1 MB of output unless `more` says otherwise.
 */
export function commandRequest(
  ws: string,
  argv: string[],
  more: Partial<CommandRequest> = {},
): CommandRequest {
  return {
    argv,
    cwd: ws,
    env: { PATH: SYSTEM_PATH, HOME: ws },
    timeoutMs: 30_000,
    maxOutputBytes: 1_000_000,
    network: false,
    ...more,
  };
}

/** Whether every exit code a script echoed on one line (`echo $a $b …`) says it failed. */
export function everyCodeFailed(stdout: string): boolean {
  return stdout
    .trim()
    .split(" ")
    .map(Number)
    .every((code) => code !== 0);
}
