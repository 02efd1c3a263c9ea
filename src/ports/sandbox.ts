// The Sandbox port: run one command for an agent, contained.

/**
 * Per-command resource limits (issue 8 §11), per role in `.github/cfa.yml` (`commandLimits`).
 * How each is enforced: src/adapters/sandbox/limit-args.ts and bwrap-args.ts.
 */
export interface CommandLimits {
  /** Tasks (processes and their threads) the command may have at once. */
  processes: number;
  /** Private writable memory (heap, mmap) per process, in MiB. */
  memoryMiB: number;
  /** The largest file a process may write, in MiB. */
  fileSizeMiB: number;
  /** CPU seconds per process, all its threads together. */
  cpuSeconds: number;
  /** The private /tmp (and /dev/shm), each a tmpfs in RAM of this many MiB. */
  tmpMiB: number;
}

/**
 * The defaults: above what a test run or a build of an ordinary repository needs, below
 * what takes a runner down. Issue 8's probes (300 processes, 64 MiB of /tmp) are stopped.
 */
export const DEFAULT_COMMAND_LIMITS: Readonly<CommandLimits> = {
  processes: 256,
  memoryMiB: 2048,
  fileSizeMiB: 512,
  cpuSeconds: 600,
  tmpMiB: 32,
};

export interface CommandRequest {
  /** argv[0] is the program; no shell is involved unless the role allows one. */
  argv: string[];
  /** The workspace root: the command's cwd and its only writable folder. */
  cwd: string;
  /** The complete environment the command sees (already reduced to an allowlist). */
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  network: boolean;
  /** Resource limits; DEFAULT_COMMAND_LIMITS when absent. Applied only by a real sandbox. */
  limits?: CommandLimits;
}

export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** True when stdout or stderr was cut at maxOutputBytes. */
  truncated: boolean;
  durationMs: number;
}

export interface Sandbox {
  /** "bwrap" when contained by bubblewrap; "none" only when sandbox mode is explicitly off. */
  readonly kind: "bwrap" | "none";
  run(request: CommandRequest, options?: { signal?: AbortSignal }): Promise<CommandResult>;
}
