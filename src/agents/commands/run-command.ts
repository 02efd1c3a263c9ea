// Runs one agent command: the role's policy first, then the sandbox. The policy refuses
// before anything is spawned; the sandbox contains whatever the policy let through.

import { egressFor } from "../../config/egress.js";
import type { NetworkSetting } from "../../config/network-setting.js";
import type { CommandLimits, CommandResult, Sandbox, SharedCache } from "../../ports/sandbox.js";
import { checkCommand } from "./check-command.js";
import { reduceEnv, type EnvLike } from "./reduce-env.js";
import { relativeToWorkspace } from "./relative-paths.js";
import { withToolDefaults } from "./tool-defaults.js";

export interface CommandRole {
  /** Bare program names, e.g. ["git", "node", "npm", "npx", "ls", "cat", "grep"]. */
  allowedCommands: readonly string[];
  /** `network:` for the role: false (default), true, or ecosystems and hosts. */
  network?: NetworkSetting;
  /** Variable names passed through on top of the base allowlist (still secret-filtered). */
  extraEnv?: readonly string[];
  /** The role's resource limits (`commandLimits` in .github/cfa.yml); the defaults when absent. */
  limits?: CommandLimits;
}

export interface RunCommandInput {
  sandbox: Sandbox;
  argv: readonly string[];
  /** The workspace root: cwd, and the only writable folder of the repository. */
  workspaceRoot: string;
  /** The workspace's private folder outside the worktree (Workspace.home): HOME. */
  home?: string;
  role: CommandRole;
  /** The parent's environment; it is reduced here, never passed whole. */
  env: EnvLike;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Package caches shared between the job's workspaces (the engine chooses where). */
  caches?: readonly SharedCache[];
  signal?: AbortSignal;
}

/**
 * Throws CommandRefusedError (policy) or a sandbox error; a failing command is a result, its
 * output naming the workspace relative to itself (relative-paths.ts).
 */
export async function runCommand(input: RunCommandInput): Promise<CommandResult> {
  checkCommand(input.argv, input.role.allowedCommands);
  const result = await input.sandbox.run(
    {
      argv: [...input.argv],
      cwd: input.workspaceRoot,
      env: withToolDefaults(
        reduceEnv(input.env, input.role.extraEnv ?? [], { home: input.workspaceRoot }),
      ),
      timeoutMs: input.timeoutMs,
      maxOutputBytes: input.maxOutputBytes,
      network: egressFor(input.role.network),
      ...(input.caches === undefined ? {} : { caches: input.caches }),
      ...(input.home === undefined ? {} : { home: input.home }),
      ...(input.role.limits === undefined ? {} : { limits: input.role.limits }),
    },
    input.signal ? { signal: input.signal } : undefined,
  );
  return {
    ...result,
    stdout: relativeToWorkspace(result.stdout, input.workspaceRoot),
    stderr: relativeToWorkspace(result.stderr, input.workspaceRoot),
  };
}
