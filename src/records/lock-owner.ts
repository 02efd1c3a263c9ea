// Who holds a lock file, and whether that holder still runs. A lock names its process by pid
// and by the time that process started: a pid alone is reused once its process dies (Linux
// hands pids out again in turn), so a lock of a dead command could look held by whatever
// process got its number. The start time is /proc/<pid>/stat's field 22, "starttime: the time
// the process started after system boot", in clock ticks (proc_pid_stat(5),
// https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html); it never changes for the life of
// a process. Where there is no /proc it is null and the pid alone decides, as before.

import { readFileSync } from "node:fs";

export interface LockOwner {
  pid: number;
  /** The process's start time (clock ticks after boot), or null where it cannot be read. */
  start: string | null;
}

/** The start time of process `pid`, or null (no such process, or no /proc). */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces or ")": count from
    // the last one. Field 3 follows it, so field 22 is the 20th after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** This process, as a lock names its holder. */
export function thisProcess(): LockOwner {
  return { pid: process.pid, start: processStart(process.pid) };
}

/** Reads a holder from a lock's text: `{ "pid": …, "start": … }`, or a bare pid (older locks). */
export function parseLockOwner(text: string): LockOwner | null {
  const bare = text.trim();
  if (/^[0-9]{1,10}$/.test(bare)) return { pid: Number(bare), start: null };
  try {
    const raw = JSON.parse(bare) as { pid?: unknown; start?: unknown };
    if (typeof raw.pid !== "number" || !Number.isSafeInteger(raw.pid) || raw.pid <= 0) return null;
    return { pid: raw.pid, start: typeof raw.start === "string" ? raw.start : null };
  } catch {
    return null;
  }
}

/**
 * Whether the holder still runs: its pid answers signal 0 (EPERM: it exists, another user's)
 * and, where both are known, it started when the lock says. A pid that now belongs to a
 * process started later is a dead holder's number, reused.
 */
export function isRunning(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (owner.start === null) return true;
  const now = processStart(owner.pid);
  return now === null || now === owner.start;
}
