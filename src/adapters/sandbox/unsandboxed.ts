// The Sandbox port without containment, for sandbox mode `off` only (docs/sandbox.md:
// bwrap is required by default). It still applies everything that is not
// containment: cwd, exactly request.env, no shell, time limit, output cap, abort.

import type {
  CommandRequest,
  CommandResult,
  ProcessRequest,
  Sandbox,
} from "../../ports/sandbox.js";
import { cacheEnv } from "./cache-env.js";
import { runProcess } from "./run-process.js";
import { spawnProcess } from "./spawn-process.js";
import { validateRequest } from "./validate-request.js";

export interface UnsandboxedOptions {
  /** Monotonic milliseconds for durationMs. */
  now?: () => number;
}

export function createUnsandboxed(options: UnsandboxedOptions = {}): Sandbox {
  return {
    kind: "none",
    async run(request: CommandRequest, runOptions?: { signal?: AbortSignal }) {
      await validateRequest(request);
      const [program, ...args] = request.argv as [string, ...string[]];
      try {
        return await runProcess({
          file: program,
          args,
          cwd: request.cwd,
          env: processEnv(request),
          timeoutMs: request.timeoutMs,
          maxOutputBytes: request.maxOutputBytes,
          signal: runOptions?.signal,
          ...(options.now ? { now: options.now } : {}),
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // Answer like a shell (and like bwrap's own execvp failure): the agent asked for a
        // program that is not there, which is the command's failure, not the engine's.
        if (code === "ENOENT" || code === "EACCES") return notRunnable(program, code);
        throw error;
      }
    },

    async start(request: ProcessRequest) {
      await validateRequest(request);
      const [program, ...args] = request.argv as [string, ...string[]];
      return spawnProcess({
        file: program,
        args,
        cwd: request.cwd,
        env: processEnv(request),
        stderrBytes: request.stderrBytes,
        cleanup: async () => {},
      });
    },
  };
}

/**
 * Exactly the request's environment, with the caches pointing the tools at the shared folders;
 * `network` is not enforced here (nothing is contained with the sandbox off).
 */
function processEnv(request: CommandRequest | ProcessRequest): Record<string, string> {
  return Object.assign(
    { ...request.env },
    ...(request.caches ?? []).map((cache) => cacheEnv(cache.tool, cache.path)),
  ) as Record<string, string>;
}

function notRunnable(program: string, code: string): CommandResult {
  return {
    exitCode: code === "ENOENT" ? 127 : 126,
    signal: null,
    stdout: "",
    stderr: `cfa/sandbox: cannot run ${program}: ${code === "ENOENT" ? "not found on PATH" : "permission denied"}\n`,
    timedOut: false,
    truncated: false,
    durationMs: 0,
  };
}
