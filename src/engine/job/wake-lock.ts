// One wake per job at a time. On GitHub the workflow's `concurrency: cfa-<N>` group does it;
// locally two `cfa` commands can run at once — `cfa intervene` from a second terminal while
// `cfa run` works, say — and two wakes over one worktree would corrupt it. The second finds
// the lock and stays out: the running wake reads the new comment at its next model call
// (poll-interventions.ts).
//
// The lock is a file beside the job's area holding the owner's pid, its start time and a
// token. A lock whose process is gone is stale and taken over, said in one line (a crash
// leaves one); a pid now running another process, started later, is a dead owner's number
// reused (src/records/lock-owner.ts). A lock with this process's pid
// is live only if this process holds its token now: a tree restored from a copy (the crash
// tests) carries a lock of this pid that nobody holds.

import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  isRunning,
  parseLockOwner,
  thisProcess,
  type LockOwner,
} from "../../records/lock-owner.js";

const held = new Set<string>();

export interface WakeLock {
  release(): Promise<void>;
}

export type LockResult = { kind: "taken"; lock: WakeLock } | { kind: "busy"; pid: number };

export function wakeLockPath(workRoot: string, job: number): string {
  return join(workRoot, `${job}.wake.lock`);
}

export async function takeWakeLock(
  workRoot: string,
  job: number,
  /** Hears one line when a lock left by a process that ended is taken over. */
  say: (line: string) => void = () => {},
): Promise<LockResult> {
  const path = wakeLockPath(workRoot, job);
  await mkdir(dirname(path), { recursive: true });
  const token = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(JSON.stringify({ ...thisProcess(), token }));
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
      if (owner !== null && owner.pid !== process.pid) {
        say(`the wake lock ${path} was left by process ${owner.pid}, which has ended: taken over.`);
      }
    }
  }
  throw new Error(`cfa/engine: could not take the wake lock ${path}`);
}

type Owner = LockOwner & { token: string };

async function readOwner(path: string): Promise<Owner | null> {
  try {
    const text = await readFile(path, "utf8");
    const owner = parseLockOwner(text);
    const token = (JSON.parse(text) as { token?: unknown }).token;
    return owner !== null && typeof token === "string" ? { ...owner, token } : null;
  } catch {
    return null; // torn or gone: stale
  }
}

function isLive(owner: Owner): boolean {
  if (owner.pid === process.pid) return held.has(owner.token);
  return isRunning(owner);
}
