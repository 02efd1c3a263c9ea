// Checks a CommandRequest before anything is spawned, so a caller's mistake is a named
// error rather than a confusing bwrap or spawn failure.

import { stat } from "node:fs/promises";
import path from "node:path";
import type { CommandRequest, ProcessRequest } from "../../ports/sandbox.js";
import { SandboxRequestError } from "./errors.js";

// POSIX names: bwrap's --setenv would fail on '=', and a NUL cannot cross execve at all.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export async function validateRequest(request: CommandRequest | ProcessRequest): Promise<void> {
  const program = request.argv[0];
  if (program === undefined || program === "") {
    throw new SandboxRequestError("argv", "must name a program in argv[0]");
  }
  if (request.argv.some((arg) => arg.includes("\0"))) {
    throw new SandboxRequestError("argv", "must not contain NUL characters");
  }
  for (const [name, value] of Object.entries(request.env)) {
    if (!ENV_NAME.test(name)) {
      throw new SandboxRequestError("env", `has an invalid variable name ${JSON.stringify(name)}`);
    }
    // The value is not echoed: it could be a secret the caller forgot to strip.
    if (value.includes("\0")) {
      throw new SandboxRequestError("env", `variable ${name} contains a NUL character`);
    }
  }
  if ("timeoutMs" in request) {
    if (!Number.isFinite(request.timeoutMs) || request.timeoutMs <= 0) {
      throw new SandboxRequestError("timeoutMs", "must be a positive number of milliseconds");
    }
    if (!Number.isInteger(request.maxOutputBytes) || request.maxOutputBytes < 0) {
      throw new SandboxRequestError("maxOutputBytes", "must be a non-negative integer");
    }
  } else if (!Number.isInteger(request.stderrBytes) || request.stderrBytes < 0) {
    throw new SandboxRequestError("stderrBytes", "must be a non-negative integer");
  }
  if (!path.isAbsolute(request.cwd)) {
    throw new SandboxRequestError("cwd", `must be an absolute path (got ${request.cwd})`);
  }
  const info = await stat(request.cwd).catch((cause: unknown) => {
    throw new SandboxRequestError("cwd", `does not exist: ${request.cwd}`, { cause });
  });
  if (!info.isDirectory()) {
    throw new SandboxRequestError("cwd", `is not a directory: ${request.cwd}`);
  }
}
