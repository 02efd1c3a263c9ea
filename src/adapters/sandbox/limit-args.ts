// Per-command resource limits, applied inside the sandbox by util-linux's prlimit(1) just
// before the command runs (bwrap has no option for them).
// - processes: RLIMIT_NPROC, set inside the sandbox's own user namespace. Since Linux 5.14
//   the count is kept per user namespace and checked level by level from the innermost
//   (kernel/ucount.c is_rlimit_overlimit), so it counts this sandbox's tasks (threads
//   included), not every process of the worker's user. It does not bind real root
//   (kernel/fork.c copy_process exempts INIT_USER): as root a pids cgroup is used when one
//   can be made (pids-cgroup.ts).
// - memory: RLIMIT_DATA per process (private writable memory: heap, mmap), not RLIMIT_AS:
//   V8 reserves gigabytes of address space for WebAssembly memories, so a 2 GiB
//   RLIMIT_AS makes `new WebAssembly.Memory()` fail in Node 20 while RLIMIT_DATA does not.
// - file size: RLIMIT_FSIZE (a larger write fails with SIGXFSZ / EFBIG).
// - CPU time: RLIMIT_CPU per process, all its threads.
// - open files: RLIMIT_NOFILE per process. It bounds what one process holds, not the
//   command: processes × openFiles can still be many sockets, which is why the egress proxy
//   bounds the connections it takes from a command itself (egress-proxy.ts).
// Soft and hard limits are equal, so a command cannot raise them again.

import type { CommandLimits } from "../../ports/sandbox.js";

const MIB = 1024 * 1024;

/** The bridge's own limit (bwrap-args.ts): it runs before the command's limits apply. */
export function bridgeLimitArgs(prlimit: string, limits: CommandLimits): string[] {
  return [prlimit, `--nofile=${limits.openFiles}:${limits.openFiles}`, "--"];
}

export function limitArgs(prlimit: string, limits: CommandLimits): string[] {
  const both = (value: number) => `${value}:${value}`;
  return [
    prlimit,
    `--nproc=${both(limits.processes)}`,
    `--data=${both(limits.memoryMiB * MIB)}`,
    `--fsize=${both(limits.fileSizeMiB * MIB)}`,
    `--cpu=${both(limits.cpuSeconds)}`,
    `--nofile=${both(limits.openFiles)}`,
    // No core dumps: a crashing command would otherwise write one into the workspace.
    "--core=0:0",
    "--",
  ];
}
