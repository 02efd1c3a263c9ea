// The Sandbox port: run one command for an agent, contained; or start one long-lived process
// under the same walls (an MCP server the agent's tools talk to over its stdin and stdout).

import type { Readable, Writable } from "node:stream";

/**
 * Per-command resource limits, per role in `.github/cfa.yml` (`commandLimits`).
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
  /** Files (descriptors: sockets, pipes) each process may hold open: RLIMIT_NOFILE. */
  openFiles: number;
  /**
   * Connections the command may hold open through its egress proxy at once (a quarter of
   * them still sending their request head); past it a new one is refused and recorded.
   */
  connections: number;
}

/**
 * The defaults: above what a test run or a build of an ordinary repository needs, below
 * what takes a runner down: a command starting 300 processes or writing 64 MiB to /tmp is
 * stopped.
 */
export const DEFAULT_COMMAND_LIMITS: Readonly<CommandLimits> = {
  processes: 256,
  memoryMiB: 2048,
  fileSizeMiB: 512,
  cpuSeconds: 600,
  tmpMiB: 32,
  // The soft limit most Linux systems give a login (1024) is too few for a parallel test
  // runner or a bundler; GitHub's runners give 65536. Per process.
  openFiles: 4096,
  // src/adapters/egress/egress-proxy.ts DEFAULT_EGRESS_LIMITS: far above what package
  // managers open.
  connections: 128,
};

/**
 * What a command may reach: nothing (`false`), everything unfiltered (`true`), or only these
 * hosts through the egress proxy: `name`, `*.suffix` (any subdomain), either with `:port`;
 * without a port, 80 and 443. Expanded from `network:` in .github/cfa.yml by
 * src/config/egress.ts.
 */
export type NetworkAccess = boolean | { hosts: readonly string[] };

/** Package managers whose download cache a command can share with other workspaces. */
export const CACHE_TOOLS = ["npm", "pip", "go", "cargo"] as const;
export type CacheTool = (typeof CACHE_TOOLS)[number];

/**
 * A host folder outside every workspace whose data parts — never the tool's configuration —
 * are bound read-write into the command's private home where the tool looks for them
 * (src/adapters/sandbox/cache-env.ts): the second workspace's install is served from it. The
 * caller chooses and creates the folder.
 */
export interface SharedCache {
  tool: CacheTool;
  path: string;
}

export interface CommandRequest {
  /** argv[0] is the program; no shell is involved unless the role allows one. */
  argv: string[];
  /** The workspace root: the command's cwd and its only writable folder. */
  cwd: string;
  /** The complete environment the command sees (already reduced to an allowlist). */
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  network: NetworkAccess;
  /** Package caches shared between workspaces; none when absent. */
  caches?: readonly SharedCache[];
  /**
   * A host folder of the engine's, outside every workspace, bound read-write at its own path:
   * where the bash tool's command leaves its shell session (src/agents/shell). The caller
   * chooses and creates it; none when absent.
   */
  stateDir?: string;
  /**
   * The workspace's private folder outside the worktree (Workspace.home): the command's HOME
   * (shown at a fixed path in the sandbox), where tools keep their caches, logs, histories
   * and configuration between the workspace's commands. Absent: a fresh empty one per
   * command. HOME is never the worktree, whatever `env` says.
   */
  home?: string;
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
  /**
   * Requests the egress proxy refused while the command ran (network as a host list),
   * identical ones counted; a bounded list of kinds, least recently seen first, then one
   * entry per reason with host `*` counting the kinds it no longer lists (every refusal is
   * counted somewhere). Absent when nothing was refused or the sandbox has no proxy. A direct connection never gets this far: the sandbox has no route
   * out, so it fails at once in the command (ENETUNREACH) and is not seen by the proxy.
   */
  blocked?: BlockedRequest[];
}

export const BLOCK_REASONS = [
  /** The host (or host and port) is not on the role's list. */
  "not-allowed",
  /** The name resolves only to loopback, link-local, metadata or this host's own addresses. */
  "address",
  /** Bytes that are not an HTTP proxy request (raw TCP through the proxy's port, SOCKS…). */
  "protocol",
  /**
   * Past the command's share of its proxy: too many connections open or not yet through
   * their request head, or a head not sent in time (src/adapters/egress/egress-proxy.ts).
   */
  "limit",
] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

export interface BlockedRequest {
  /**
   * As the command asked for it (lowercased); "" when it named none (bytes that name no
   * host, a connection cut at the limit); `*` for refusals of kinds no longer listed.
   */
  host: string;
  port: number;
  /** `https` for CONNECT, `http` for an absolute-form request, `tcp` for anything else. */
  protocol: "http" | "https" | "tcp";
  reason: BlockReason;
  /** The command the engine ran, whose process tree made the request. */
  command: readonly string[];
  /** How many times this same refusal happened during the command. */
  count: number;
}

/**
 * A process that lives until stopped, under a command's walls: the same root, workspace,
 * environment, network (the egress proxy lives as long as the process), limits and process
 * namespace. No time limit and no output cap: the caller reads stdout as a stream and bounds
 * what it takes, and stops the process when done.
 */
export type ProcessRequest = Omit<CommandRequest, "timeoutMs" | "maxOutputBytes"> & {
  /** The last bytes of stderr kept, for what a failure shows. */
  stderrBytes: number;
};

export interface SandboxedProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** The last `stderrBytes` the process wrote to stderr, as UTF-8. */
  stderrTail(): string;
  /** Settles once the process and everything it started are gone (never rejects). */
  readonly exited: Promise<{ exitCode: number | null; signal: string | null }>;
  /** Requests the egress proxy refused so far (network as a host list). */
  blocked(): BlockedRequest[];
  /** Kills the process and everything it started, then cleans up; resolves when done. */
  stop(): Promise<void>;
}

export interface Sandbox {
  /** "bwrap" when contained by bubblewrap; "none" only when sandbox mode is explicitly off. */
  readonly kind: "bwrap" | "none";
  run(request: CommandRequest, options?: { signal?: AbortSignal }): Promise<CommandResult>;
  /**
   * Starts a long-lived process (an MCP server) under the walls `run` gives a command.
   * Rejects when it cannot be spawned; a process that exits at once is a SandboxedProcess
   * whose `exited` has settled.
   */
  start(request: ProcessRequest): Promise<SandboxedProcess>;
}
