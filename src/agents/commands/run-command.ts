// Runs one agent command: the role's policy first, then the sandbox. The policy refuses
// before anything is spawned; the sandbox contains whatever the policy let through.

import type { CommandLimits, CommandResult, Sandbox } from "../../ports/sandbox.js";
import { checkCommand } from "./check-command.js";
import { reduceEnv, type EnvLike } from "./reduce-env.js";

export interface CommandRole {
  /** Bare program names, e.g. ["git", "node", "npm", "npx", "ls", "cat", "grep"]. */
  allowedCommands: readonly string[];
  /** Whether commands may reach the network (default false). */
  network?: boolean;
  /** Variable names passed through on top of the base allowlist (still secret-filtered). */
  extraEnv?: readonly string[];
  /** The role's resource limits (`commandLimits` in .github/cfa.yml); the defaults when absent. */
  limits?: CommandLimits;
}

export interface RunCommandInput {
  sandbox: Sandbox;
  argv: readonly string[];
  /** The workspace root: cwd, HOME, and the only writable folder. */
  workspaceRoot: string;
  role: CommandRole;
  /** The parent's environment; it is reduced here, never passed whole. */
  env: EnvLike;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

/** Throws CommandRefusedError (policy) or a sandbox error; a failing command is a result. */
export async function runCommand(input: RunCommandInput): Promise<CommandResult> {
  checkCommand(input.argv, input.role.allowedCommands);
  return input.sandbox.run(
    {
      argv: [...input.argv],
      cwd: input.workspaceRoot,
      env: reduceEnv(input.env, input.role.extraEnv ?? [], { home: input.workspaceRoot }),
      timeoutMs: input.timeoutMs,
      maxOutputBytes: input.maxOutputBytes,
      network: input.role.network ?? false,
      ...(input.role.limits === undefined ? {} : { limits: input.role.limits }),
    },
    input.signal ? { signal: input.signal } : undefined,
  );
}
