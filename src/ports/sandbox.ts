// The Sandbox port: run one command for an agent, contained.

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
