// A process limit for a sandbox run as root. RLIMIT_NPROC does not bind real root
// (kernel/fork.c copy_process: `p->real_cred->user != INIT_USER`), so when the worker runs
// as root (containers, this project's own CI machine) each command gets its own pids cgroup
// when the cgroup filesystem lets us make one: cgroup v1's pids hierarchy, or cgroup v2 when
// the pids controller is already delegated to our cgroup
// (https://docs.kernel.org/admin-guide/cgroup-v2.html#pid). The command enters it before
// bwrap starts, through a launcher shell that writes its own pid to cgroup.procs and execs.
//
// On GitHub-hosted runners none of this is needed, and none of it would be open: the job
// runs as the ordinary `runner` user (with passwordless sudo, which the worker does not use:
// https://docs.github.com/en/actions/using-github-hosted-runners/using-github-hosted-runners/about-github-hosted-runners#administrative-privileges),
// so RLIMIT_NPROC binds; the Ubuntu 22.04+ images use cgroup v2 (libcgroup/libcgroup#454
// moved its v2 tests onto ubuntu-latest for that) and the runner lives in a root-owned
// system service's cgroup, not delegated to the runner user (actions/runner-images#3536).

import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";

export interface PidsCgroup {
  /** The cgroup.procs file the launcher writes its pid to. */
  procs: string;
  /** Removes the cgroup once its processes are gone (retries briefly while they exit). */
  remove(): Promise<void>;
}

export interface PidsCgroupOptions {
  /** Where the cgroup filesystem is mounted. Default /sys/fs/cgroup. */
  mount?: string;
  /** The text of /proc/self/cgroup. Default: read it. */
  selfCgroup?: string;
}

let counter = 0;

/** A fresh pids cgroup allowing `max` tasks, or null when none can be made here. */
export async function createPidsCgroup(
  max: number,
  options: PidsCgroupOptions = {},
): Promise<PidsCgroup | null> {
  const mount = options.mount ?? "/sys/fs/cgroup";
  const self = options.selfCgroup ?? (await readFile("/proc/self/cgroup", "utf8").catch(() => ""));
  for (const base of await candidates(mount, self)) {
    const dir = path.join(base, `cfa-sandbox-${process.pid}-${(counter += 1)}`);
    try {
      await mkdir(dir);
    } catch {
      continue;
    }
    try {
      await writeFile(path.join(dir, "pids.max"), String(max));
      return { procs: path.join(dir, "cgroup.procs"), remove: () => removeCgroup(dir) };
    } catch {
      await rmdir(dir).catch(() => undefined);
    }
  }
  return null;
}

/** Parent folders to create the cgroup in: v1's pids hierarchy, then a delegated v2 one. */
async function candidates(mount: string, self: string): Promise<string[]> {
  const found: string[] = [];
  for (const line of self.split("\n")) {
    const [, controllers, where] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (where === undefined) continue;
    if (controllers?.split(",").includes("pids")) found.push(path.join(mount, "pids", where));
    if (controllers === "") {
      // v2: only when pids is already enabled for our cgroup's children; enabling it
      // ourselves would need our own processes out of the cgroup (no internal processes).
      const v2 = path.join(mount, where);
      const control = await readFile(path.join(v2, "cgroup.subtree_control"), "utf8").catch(
        () => "",
      );
      if (control.split(/\s+/).includes("pids")) found.push(v2);
    }
  }
  return found;
}

/**
 * Waits between tries of the removal: a cgroup is busy only until the kernel has reaped the
 * command's last processes, most often a few milliseconds after bwrap exits, and the command's
 * result waits for this. A flat 50 ms wait cost 50 ms on a quarter of the demo's commands
 * (measured as root on this project's CI machine); short waits first, then 50 ms, within the
 * same second overall.
 */
const REMOVE_WAITS_MS = [1, 2, 4, 8, 16, 32, ...Array.from({ length: 18 }, () => 50)];

async function removeCgroup(dir: string): Promise<void> {
  for (const wait of [...REMOVE_WAITS_MS, null]) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EBUSY" || wait === null) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The launcher: joins the cgroup, then becomes bwrap (`$0` is the procs file). */
export const JOIN_CGROUP_SCRIPT = 'echo $$ > "$0" && exec "$@"';
