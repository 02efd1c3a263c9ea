// The bwrap command line for one command: a pure function of an already-resolved plan, so
// the mount order (which decides what is visible and writable) is tested without bwrap.
// bubblewrap 0.8.0 (Debian bookworm, Ubuntu 24.04) options only: `man bwrap`.

import type { CommandLimits } from "../../ports/sandbox.js";
import { EGRESS_BRIDGE, EGRESS_NODE, EGRESS_PORT, EGRESS_SOCKET } from "../egress/index.js";
import { SANDBOX_HOME } from "./cache-env.js";
import { bridgeLimitArgs, limitArgs } from "./limit-args.js";
import type { SystemRoot } from "./system-root.js";

export interface BwrapPlan {
  /** What of the host the root shows (system-root.ts). */
  system: SystemRoot;
  /** Realpath of the workspace: cwd and the only writable folder. */
  cwd: string;
  argv: readonly string[];
  env: Readonly<Record<string, string>>;
  /** The host's network shared (`network: true`); otherwise the sandbox has only loopback. */
  network: boolean;
  /**
   * The egress bridge (network as a host list): the proxy's socket, the node binary and the
   * bridge script on the host, bound read-only at their private paths; the bridge runs
   * first and starts the command.
   */
  egress?: { socket: string; node: string; bridge: string };
  /** Toolchain folders (toolchain-paths.ts), real paths bound read-only at their own path. */
  toolchains?: readonly string[];
  /**
   * The command's HOME: a host folder outside the workspace (the workspace's private home, or
   * a throwaway one), bound read-write at SANDBOX_HOME.
   */
  home?: string;
  /** Host folders bound read-write below SANDBOX_HOME (the shared caches' data parts). */
  homeBinds?: readonly { source: string; target: string }[];
  limits: CommandLimits;
  /** The launcher that applies the limits (prlimit), by its path inside the sandbox. */
  prlimit: string;
  /** Files written for the sandbox (passwd, group, hosts): source on the host → /etc/<name>. */
  etcFiles: readonly { source: string; target: string }[];
  /** Existing directories, inside the shown system, to cover with an empty tmpfs. */
  hide: readonly string[];
  /** Existing paths to show read-only (the repository's gitdirs). */
  readOnly: readonly string[];
  /** Files bound read-only over existing files, after everything else. */
  overlays: readonly { source: string; target: string }[];
}

/** True when `target` is `folder` or inside it (both absolute and normalized). */
export function isWithin(target: string, folder: string): boolean {
  return folder === "/" || target === folder || target.startsWith(folder + "/");
}

const MIB = 1024 * 1024;

/** Folders that exist in the sandbox, empty: nothing of the host's is in them. */
export const EMPTY_FOLDERS = ["/home", "/root", "/run", "/srv", "/mnt", "/media"] as const;

export function bwrapArgs(plan: BwrapPlan): string[] {
  const { cwd, system } = plan;
  const tmpBytes = String(plan.limits.tmpMiB * MIB);
  // bwrap starts from an empty tmpfs root; everything shown is added below, and the root
  // itself is made read-only last.
  const args: string[] = [];
  for (const folder of system.folders) args.push("--ro-bind", folder, folder);
  for (const { path, target } of system.links) args.push("--symlink", target, path);
  const etc = plan.network ? [...system.etc, ...system.networkEtc] : system.etc;
  for (const entry of etc) args.push("--ro-bind-try", entry, entry);
  for (const { source, target } of plan.etcFiles) args.push("--ro-bind", source, target);
  args.push(
    // A fresh /dev: null, zero, full, random, urandom, tty, pts. Its /dev/shm is a size-capped
    // tmpfs of its own, and /dev itself read-only: bwrap's /dev is an uncapped tmpfs a
    // command could otherwise fill with files (RAM).
    "--dev",
    "/dev",
    "--size",
    tmpBytes,
    "--tmpfs",
    "/dev/shm",
    "--remount-ro",
    "/dev",
    // Its own /proc (own PID namespace: only the command's processes).
    "--proc",
    "/proc",
    // A private, size-capped /tmp in RAM.
    "--size",
    tmpBytes,
    "--tmpfs",
    "/tmp",
  );
  for (const folder of EMPTY_FOLDERS) args.push("--dir", folder);
  args.push("--symlink", "../run", "/var/run");
  // Hides come before any bind: a later bind into a hidden folder re-creates just that
  // path inside the tmpfs, the rest stays invisible.
  for (const folder of plan.hide) args.push("--tmpfs", folder);
  // Read-only paths outside the workspace before it, those inside it after it, so the
  // workspace bind can neither re-expose nor be covered by them.
  const outside = plan.readOnly.filter((p) => !isWithin(p, cwd));
  const inside = plan.readOnly.filter((p) => isWithin(p, cwd) && p !== cwd);
  for (const p of plan.toolchains ?? []) args.push("--ro-bind", p, p);
  for (const p of outside) args.push("--ro-bind", p, p);
  args.push("--bind", cwd, cwd);
  for (const p of inside) args.push("--ro-bind", p, p);
  if (plan.home !== undefined) args.push("--bind", plan.home, SANDBOX_HOME);
  for (const { source, target } of plan.homeBinds ?? []) args.push("--bind", source, target);
  if (plan.egress) {
    args.push("--ro-bind", plan.egress.socket, EGRESS_SOCKET);
    args.push("--ro-bind", plan.egress.node, EGRESS_NODE);
    args.push("--ro-bind", plan.egress.bridge, EGRESS_BRIDGE);
  }
  for (const { source, target } of plan.overlays) args.push("--ro-bind", source, target);
  // Nothing can be created in the root after this: the folders bwrap made for the binds
  // above stay empty.
  args.push("--remount-ro", "/");
  args.push("--chdir", cwd, "--unshare-all", "--hostname", "sandbox");
  if (plan.network) args.push("--share-net");
  args.push(
    "--die-with-parent",
    "--new-session",
    // bwrap keeps every capability when started as root (as on this machine and in many
    // containers); with CAP_SYS_ADMIN a command could `mount -o remount,rw /` and write
    // the host's files.
    "--cap-drop",
    "ALL",
    "--clearenv",
  );
  for (const [name, value] of Object.entries(plan.env)) args.push("--setenv", name, value);
  // `--` so a program name starting with a dash is never read as a bwrap option.
  // The bridge is outside the command's limits (it only forwards) but for its open files: a
  // command flooding it with connections exhausts the bridge's table, not the engine's.
  const bridge = plan.egress
    ? [
        ...bridgeLimitArgs(plan.prlimit, plan.limits),
        EGRESS_NODE,
        EGRESS_BRIDGE,
        String(EGRESS_PORT),
        EGRESS_SOCKET,
      ]
    : [];
  args.push("--", ...bridge, ...limitArgs(plan.prlimit, plan.limits), ...plan.argv);
  return args;
}
