// One wake per job at a time. On GitHub the workflow's `concurrency: cfa-<N>` group does it;
// locally two `cfa` commands can run at once — `cfa intervene` from a second terminal while
// `cfa run` works, say — and two wakes over one worktree would corrupt it. The second finds
// the lock and stays out: the running wake reads the new comment at its next model call
// (poll-interventions.ts).
//
// The lock is a file beside the job's area holding the owner's pid and a token. A lock whose
// process is gone is stale and taken over (a crash leaves one). A lock with this process's pid
// is live only if this process holds its token now: a tree restored from a copy (the crash
// tests) carries a lock of this pid that nobody holds.

import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

const held = new Set<string>();

export interface WakeLock {
  release(): Promise<void>;
}

export type LockResult = { kind: "taken"; lock: WakeLock } | { kind: "busy"; pid: number };

export function wakeLockPath(workRoot: string, job: number): string {
  return join(workRoot, `${job}.wake.lock`);
}

export async function takeWakeLock(workRoot: string, job: number): Promise<LockResult> {
  const path = wakeLockPath(workRoot, job);
  await mkdir(dirname(path), { recursive: true });
  const token = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(JSON.stringify({ pid: process.pid, token }));
      await handle.close();
      held.add(token);
      return {
        kind: "taken",
        lock: {
          async release() {
            held.delete(token);
            const now = await readOwner(path);
            if (now?.token === token) await rm(path, { force: true });
          },
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = await readOwner(path);
      if (owner !== null && isLive(owner)) return { kind: "busy", pid: owner.pid };
      await rm(path, { force: true });
    }
  }
  throw new Error(`cfa/engine: could not take the wake lock ${path}`);
}

async function readOwner(path: string): Promise<{ pid: number; token: string } | null> {
  try {
    const raw = JSON.parse(await readFile(path, "utf8")) as { pid?: unknown; token?: unknown };
    return typeof raw.pid === "number" && typeof raw.token === "string"
      ? { pid: raw.pid, token: raw.token }
      : null;
  } catch {
    return null; // torn or gone: stale
  }
}

function isLive(owner: { pid: number; token: string }): boolean {
  if (owner.pid === process.pid) return held.has(owner.token);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
