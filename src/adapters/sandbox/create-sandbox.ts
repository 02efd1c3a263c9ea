// Chooses the Sandbox for a run from the configured sandbox mode. `require` (the default)
// means bubblewrap or a SandboxUnavailableError: never a silent fallback to running
// uncontained (docs/sandbox.md; docs/protocol.md#workspaces: a boundary that cannot be
// verified at startup is a hard error, not a fall-through).

import os from "node:os";
import type { Sandbox } from "../../ports/sandbox.js";
import { createBwrapSandbox, type BwrapSandboxOptions } from "./bwrap-sandbox.js";
import { SandboxUnavailableError } from "./errors.js";
import { findProgram } from "./find-program.js";
import { probeBwrap } from "./probe-bwrap.js";
import { resolveToolchains } from "./toolchain-paths.js";
import { createUnsandboxed } from "./unsandboxed.js";

export const SANDBOX_MODES = ["require", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export function isSandboxMode(value: unknown): value is SandboxMode {
  return (SANDBOX_MODES as readonly unknown[]).includes(value);
}

/** Where util-linux's prlimit is looked for: folders the sandbox shows (system-root.ts). */
const SYSTEM_BIN = "/usr/bin:/bin:/usr/sbin:/sbin";

export interface CreateSandboxOptions extends Omit<
  BwrapSandboxOptions,
  "bwrapPath" | "prlimitPath"
> {
  /** Finds a program; null when absent. Default: search `searchPath` (the process PATH). */
  which?: (program: string) => Promise<string | null>;
  /** Limit for each probe run of bwrap. */
  probeTimeoutMs?: number;
  /** Where prlimit is looked for (folders the sandbox shows). Default /usr/bin:/bin:/usr/sbin:/sbin. */
  systemBin?: string;
  /**
   * Whether the process holds secrets: then mode `off` is refused, since an
   * uncontained command reads the engine's environment from /proc.
   */
  holdsSecrets?: () => boolean;
  /**
   * `sandbox.readOnlyPaths` from .github/cfa.yml: checked here, so one that would show the
   * runner's folders is a SandboxConfigError before any command runs.
   */
  readOnlyPaths?: readonly string[];
}

export async function createSandbox(
  mode: SandboxMode = "require",
  options: CreateSandboxOptions = {},
): Promise<Sandbox> {
  const { which, probeTimeoutMs, systemBin, holdsSecrets, readOnlyPaths, ...bwrapOptions } =
    options;
  switch (mode) {
    case "off":
      if (holdsSecrets?.() === true) throw new SandboxUnavailableError("secrets", null, "");
      return createUnsandboxed(options.now ? { now: options.now } : {});
    case "require": {
      const searchPath = options.searchPath ?? process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
      const find = which ?? ((program: string) => findProgram(program, searchPath));
      const bwrapPath = await find("bwrap");
      if (bwrapPath === null) throw new SandboxUnavailableError("missing", null, "");
      // The limits are applied inside the sandbox by prlimit, so it must be one the sandbox
      // shows; never one from the caller's PATH.
      const prlimitPath = await findProgram("prlimit", systemBin ?? SYSTEM_BIN);
      if (prlimitPath === null) throw new SandboxUnavailableError("no-prlimit", bwrapPath, "");
      await probeBwrap(bwrapPath, {
        prlimit: prlimitPath,
        ...(bwrapOptions.systemRoot ? { systemRoot: bwrapOptions.systemRoot } : {}),
        ...(probeTimeoutMs === undefined ? {} : { timeoutMs: probeTimeoutMs }),
      });
      const toolchains =
        bwrapOptions.toolchains ??
        (await resolveToolchains({
          configured: readOnlyPaths ?? [],
          home: bwrapOptions.home === undefined ? os.homedir() : bwrapOptions.home,
          env: bwrapOptions.hostEnv ?? process.env,
          private: bwrapOptions.hidePaths ?? [],
        }));
      return createBwrapSandbox({ ...bwrapOptions, bwrapPath, prlimitPath, toolchains });
    }
    default: {
      const unreachable: never = mode;
      throw new Error(`cfa/sandbox: unknown sandbox mode ${String(unreachable)}`);
    }
  }
}
