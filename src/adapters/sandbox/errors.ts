// The sandbox adapter's named errors. Neither carries environment values: a request's env
// may be passed in by a caller that has not reduced it yet.

export const SANDBOX_UNAVAILABLE_REASONS = [
  "missing",
  "unusable",
  "no-prlimit",
  "secrets",
] as const;
export type SandboxUnavailableReason = (typeof SANDBOX_UNAVAILABLE_REASONS)[number];

const INSTALL_HINT =
  "install the Debian/Ubuntu package `bubblewrap`, or set `sandbox: off` in .github/cfa.yml to run commands uncontained";

/** Sandbox mode `require` could not get a working bubblewrap: never a silent fallback. */
export class SandboxUnavailableError extends Error {
  override readonly name = "SandboxUnavailableError";
  constructor(
    readonly reason: SandboxUnavailableReason,
    /** The bwrap that was tried, when one was found. */
    readonly bwrapPath: string | null,
    /** What bwrap itself said (its stderr), when it ran and failed. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(sandboxUnavailableMessage(reason, bwrapPath, detail), options);
  }
}

function sandboxUnavailableMessage(
  reason: SandboxUnavailableReason,
  bwrapPath: string | null,
  detail: string,
): string {
  switch (reason) {
    case "missing":
      return `cfa/sandbox: bubblewrap (bwrap) is required to run commands; ${INSTALL_HINT}`;
    case "unusable":
      // GitHub's Ubuntu 24.04 runners ship bwrap but AppArmor forbids unprivileged user
      // namespaces, so the probe is what fails there, not the lookup.
      return (
        `cfa/sandbox: bubblewrap (${bwrapPath ?? "bwrap"}) is installed but cannot create a sandbox` +
        (detail ? ` (${detail})` : "") +
        "; user namespaces may be disabled: GitHub's Ubuntu 24.04 runners restrict them via AppArmor," +
        " so run `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` before the worker," +
        " or set `sandbox: off` in .github/cfa.yml to run commands uncontained"
      );
    case "no-prlimit":
      // The per-command limits (processes, memory, file size, CPU, /tmp) are applied by
      // util-linux's prlimit inside the sandbox; without it they would silently not apply.
      return `cfa/sandbox: util-linux's prlimit is required to apply the per-command limits and was not found in /usr/bin or /bin; install the Debian/Ubuntu package \`util-linux\`, or set \`sandbox: off\` in .github/cfa.yml to run commands uncontained`;
    case "secrets":
      // Uncontained, a command runs as the engine's user and reads the engine's
      // own environment from /proc/<pid>/environ (a lead read the API key so, and its base64
      // was posted). Refused rather than weakened: no uid switch is assumed to be available.
      return "cfa/sandbox: `sandbox: off` is refused: this process holds secrets (an API key, a GitHub token) that any uncontained command could read from /proc and write anywhere; use `sandbox: require` (bubblewrap), or run where the engine holds no secret (`cfa replay`)";
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}

/** A CommandRequest the sandbox refuses to run as given (a caller's bug, not the command's). */
export class SandboxRequestError extends Error {
  override readonly name = "SandboxRequestError";
  constructor(
    readonly field: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`cfa/sandbox: invalid command request: ${field} ${problem}`, options);
  }
}

/**
 * A sandbox setting from .github/cfa.yml that cannot hold on this machine (a read-only path
 * that would show the runner's own folders): one line naming the field and what to do.
 */
export class SandboxConfigError extends Error {
  override readonly name = "SandboxConfigError";
  constructor(
    /** The field, e.g. `sandbox.readOnlyPaths[0]`. */
    readonly field: string,
    problem: string,
  ) {
    super(`cfa/sandbox: ${field}: ${problem} (.github/cfa.yml)`);
  }
}
