// Spawns one process without a shell and captures it under a time limit, an output cap
// per stream and an abort signal. Both sandboxes (bwrap and none) run through here.

import { spawn } from "node:child_process";
import type { CommandResult } from "../../ports/sandbox.js";
import { CappedOutput } from "./capped-output.js";

export interface ProcessSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal | undefined;
  /** Monotonic milliseconds, for durationMs. */
  now?: () => number;
}

/** After the process exits, how long to wait for pipes that a straggler still holds open. */
const PIPE_GRACE_MS = 1_000;

/**
 * Resolves with the result once the process has exited, including when the time limit
 * killed it (`timedOut`). Rejects when it could not be spawned (the spawn error, e.g.
 * ENOENT) or when `signal` aborted it (the signal's reason, after the process is gone).
 */
export function runProcess(spec: ProcessSpec): Promise<CommandResult> {
  const now = spec.now ?? (() => performance.now());
  return new Promise<CommandResult>((resolve, reject) => {
    const { signal } = spec;
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const started = now();
    const stdout = new CappedOutput(spec.maxOutputBytes);
    const stderr = new CappedOutput(spec.maxOutputBytes);
    let timedOut = false;
    let aborted = false;
    let settled = false;

    const child = spawn(spec.file, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so the time limit can kill everything it started.
      detached: true,
      windowsHide: true,
    });

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL"); // the group is gone already, or was never made
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, spec.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    let grace: NodeJS.Timeout | undefined;

    const finish = (): void => {
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      signal?.removeEventListener("abort", onAbort);
    };

    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      if (settled) return;
      if (child.pid === undefined) {
        finish();
        reject(error);
      }
    });
    child.on("exit", () => {
      // A background process that escaped the group can hold the pipes open forever;
      // the command itself is done, so stop waiting for them after a grace period.
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, PIPE_GRACE_MS);
    });
    child.on("close", (code, killedBy) => {
      if (settled) return;
      finish();
      if (aborted && signal) {
        reject(abortReason(signal));
        return;
      }
      resolve({
        exitCode: code,
        signal: killedBy,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Math.max(0, Math.round(now() - started)),
      });
    });
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The command was aborted", "AbortError");
}
