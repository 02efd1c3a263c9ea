// Proves bwrap can actually build a sandbox here, before any command needs one. Being
// installed is not enough: GitHub's Ubuntu 24.04 runners ship bwrap but AppArmor denies
// unprivileged user namespaces, and some containers refuse a new /proc. The trial is a real
// run's command line (the same root, mounts, limits and launcher), running `true`.

import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DEFAULT_COMMAND_LIMITS, type CommandResult } from "../../ports/sandbox.js";
import { bwrapArgs } from "./bwrap-args.js";
import { SandboxUnavailableError } from "./errors.js";
import { runProcess } from "./run-process.js";
import { discoverSystemRoot, type SystemRoot } from "./system-root.js";

const proven = new Set<string>();

export interface ProbeOptions {
  /** prlimit by the path the sandbox shows. */
  prlimit: string;
  /** What of the host to show; default: the allowlist as this host has it. */
  systemRoot?: SystemRoot;
  timeoutMs?: number;
}

/** Resolves when `bwrapPath` works; otherwise throws SandboxUnavailableError. Succeeds once per path. */
export async function probeBwrap(bwrapPath: string, options: ProbeOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (proven.has(bwrapPath)) return;
  const version = await probeRun(bwrapPath, ["--version"], "/", timeoutMs);
  if (version.exitCode !== 0) {
    throw new SandboxUnavailableError("unusable", bwrapPath, describe("--version", version));
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "cfa-sandbox-probe-"));
  try {
    const args = bwrapArgs({
      system: options.systemRoot ?? (await discoverSystemRoot()),
      cwd: dir,
      argv: ["true"],
      env: { PATH: "/usr/bin:/bin" },
      network: false,
      limits: DEFAULT_COMMAND_LIMITS,
      prlimit: options.prlimit,
      etcFiles: [],
      hide: [],
      readOnly: [],
      overlays: [],
    });
    const trial = await probeRun(bwrapPath, args, dir, timeoutMs);
    if (trial.exitCode !== 0) {
      throw new SandboxUnavailableError("unusable", bwrapPath, describe("a trial sandbox", trial));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  proven.add(bwrapPath);
}

async function probeRun(
  bwrapPath: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
): Promise<CommandResult> {
  try {
    return await runProcess({
      file: bwrapPath,
      args,
      cwd,
      env: {},
      timeoutMs,
      maxOutputBytes: 4096,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT")
      throw new SandboxUnavailableError("missing", bwrapPath, "", { cause: error });
    throw new SandboxUnavailableError(
      "unusable",
      bwrapPath,
      `cannot execute it: ${String(code ?? error)}`,
      {
        cause: error,
      },
    );
  }
}

function describe(what: string, result: CommandResult): string {
  if (result.timedOut) return `${what} did not finish in time`;
  const said = result.stderr.trim().split("\n").slice(0, 3).join(" / ").slice(0, 400);
  const status =
    result.exitCode === null ? `signal ${result.signal ?? "?"}` : `exit ${result.exitCode}`;
  return `${what} failed with ${status}${said ? `: ${said}` : ""}`;
}
