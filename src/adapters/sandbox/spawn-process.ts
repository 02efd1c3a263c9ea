// Spawns one long-lived process without a shell, in its own process group, with pipes for
// stdin and stdout and the tail of stderr kept: what a sandboxed MCP server runs through.
// Stopping kills the whole group (bwrap's, whose pid namespace ends with it), so nothing the
// process started outlives it; `exited` settles once the process is gone and `cleanup` ran.

import { spawn } from "node:child_process";
import type { SandboxedProcess } from "../../ports/sandbox.js";
import type { BlockedRequest } from "../../ports/sandbox.js";

export interface LongProcessSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  stderrBytes: number;
  /** Runs once the process is gone (the egress proxy, the cgroup, the scratch folder). */
  cleanup: () => Promise<void>;
  blocked?: () => BlockedRequest[];
}

/** Rejects with the spawn error (e.g. ENOENT) when the program cannot be started at all. */
export function spawnProcess(spec: LongProcessSpec): Promise<SandboxedProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(spec.file, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so stopping kills everything it started.
      detached: true,
      windowsHide: true,
    });
    let tail = Buffer.alloc(0);
    child.stderr.on("data", (chunk: Buffer) => {
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > spec.stderrBytes) tail = tail.subarray(tail.length - spec.stderrBytes);
    });
    // A server that dies mid-write must not crash the engine with EPIPE.
    child.stdin.on("error", () => {});
    let cleaned: Promise<void> | null = null;
    const clean = () => (cleaned ??= spec.cleanup().catch(() => {}));
    const exited = new Promise<{ exitCode: number | null; signal: string | null }>((done) => {
      child.on("close", (exitCode, signal) => {
        void clean().then(() => done({ exitCode, signal }));
      });
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    // Whatever the process left running in its group goes with it.
    child.on("exit", () => killGroup());
    child.once("error", (error) => {
      if (child.pid === undefined) {
        void clean().then(() => reject(error));
      }
    });
    child.once("spawn", () => {
      resolve({
        stdin: child.stdin,
        stdout: child.stdout,
        stderrTail: () => tail.toString("utf8"),
        exited,
        blocked: () => spec.blocked?.() ?? [],
        async stop() {
          killGroup();
          // A straggler holding the pipes open must not keep `close` from firing.
          child.stdout.destroy();
          child.stderr.destroy();
          child.stdin.destroy();
          await exited;
        },
      });
    });
  });
}
