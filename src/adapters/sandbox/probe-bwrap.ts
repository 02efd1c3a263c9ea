// Proves bwrap can actually build a sandbox here, before any command needs one. Being
// installed is not enough: GitHub's Ubuntu 24.04 runners ship bwrap but AppArmor denies
// unprivileged user namespaces, and some containers refuse a new /proc.

import type { CommandResult } from "../../ports/sandbox.js";
import { SandboxUnavailableError } from "./errors.js";
import { runProcess } from "./run-process.js";

/** The same namespaces and mounts a real run asks for, minus the workspace. */
const PROBE_ARGS = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--tmpfs",
  "/tmp",
  "--unshare-all",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
  "--clearenv",
  "--setenv",
  "PATH",
  "/usr/bin:/bin",
  "--",
  "true",
];

const proven = new Set<string>();

/** Resolves when `bwrapPath` works; otherwise throws SandboxUnavailableError. Succeeds once per path. */
export async function probeBwrap(bwrapPath: string, timeoutMs = 10_000): Promise<void> {
  if (proven.has(bwrapPath)) return;
  const version = await probeRun(bwrapPath, ["--version"], timeoutMs);
  if (version.exitCode !== 0) {
    throw new SandboxUnavailableError("unusable", bwrapPath, describe("--version", version));
  }
  const trial = await probeRun(bwrapPath, PROBE_ARGS, timeoutMs);
  if (trial.exitCode !== 0) {
    throw new SandboxUnavailableError("unusable", bwrapPath, describe("a trial sandbox", trial));
  }
  proven.add(bwrapPath);
}

async function probeRun(
  bwrapPath: string,
  args: string[],
  timeoutMs: number,
): Promise<CommandResult> {
  try {
    return await runProcess({
      file: bwrapPath,
      args,
      cwd: "/",
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
