// Crash points for the engine's resume tests. A process that dies leaves on disk whatever it
// had done when it died; everything it would have done next is lost. The engine talks to the
// world through its ports (the forge, the model, the workspaces), so the states a crash can
// leave are the states between those calls: before a call (it never happened) and after it
// (its effect happened, its answer was lost). `recordCrashPoints` runs a job once, pausing at
// every call until the process is quiet and copying its whole temp tree; a test restores a
// copy and wakes the job with new deps, which is a crash there and a restart. (Throwing at
// the N-th call would not do: the engine catches errors in places — a failed turn is
// recorded, a tool error goes back to the model — and a dead process records nothing.)

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, readlink, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { Forge } from "../../../src/ports/forge.js";
import type { Model } from "../../../src/ports/model.js";
import type { Workspaces } from "../../../src/ports/workspaces.js";

const execFileAsync = promisify(execFile);

/** Wraps the ports a job's deps are built from. */
export interface CrashSeam {
  /** Names of the calls made so far, in order (`forge.createComment`, `model.complete`, …). */
  readonly names: string[];
  forge(forge: Forge): Forge;
  model(model: Model): Model;
  workspaces(workspaces: Workspaces): Workspaces;
}

/**
 * Kinds of resources a wake's unwrapped work holds while it runs: files and git processes.
 * `CloseReq` is an fs/promises FileHandle closing: the last step of every `readFile` and
 * `writeFile` there, during which nothing else is pending (on a busy threadpool, for long).
 */
const BUSY = ["FSReqPromise", "FSReqCallback", "CloseReq", "ProcessWrap", "PipeWrap", "Timeout"];

function busyCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    if (BUSY.includes(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/** Requests: one-off operations, never the test runner's for long. */
const REQUESTS = ["FSReqPromise", "FSReqCallback", "CloseReq"];

/**
 * What this process holds for good before the job starts (the test runner's own handles):
 * the fewest of each kind over a few event-loop turns, and no fs request at all. A request
 * of the runner's in flight at the first look (a module or cache read) would otherwise stand
 * for one of the job's later, and a strand waiting on an fs request would look quiet: its
 * next git command then ran while the tree was copied, and the copy held a ref to a commit
 * it did not (crash-resume: "unable to read tree", "Could not parse object 'HEAD'").
 */
async function busyBaseline(): Promise<Map<string, number>> {
  const fewest = busyCounts();
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => (i % 5 === 4 ? setTimeout(resolve, 5) : setImmediate(resolve)));
    const now = busyCounts();
    for (const [kind, n] of fewest) fewest.set(kind, Math.min(n, now.get(kind) ?? 0));
  }
  for (const kind of REQUESTS) fewest.delete(kind);
  return fewest;
}

/**
 * Resolves once the process holds no more than `baseline`: every piece of the job is then
 * either done or waiting on a paused call. Between macrotasks every live continuation waits
 * on some resource (a file, a git process, a timer), so a few event-loop turns with none
 * left mean none will start again.
 */
async function quiet(baseline: Map<string, number>): Promise<void> {
  let calm = 0;
  for (let i = 0; i < 100_000; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = busyCounts();
    const busy = [...now].some(([kind, n]) => n > (baseline.get(kind) ?? 0));
    calm = busy ? 0 : calm + 1;
    // Calm for a while, a timer's wait among it: a margin. A strand waiting on what is not
    // counted here (an unref'd handle or timer) still looks calm: capture's check after the
    // copy catches what it then writes.
    if (calm === 3) await new Promise((resolve) => setTimeout(resolve, 5));
    if (calm >= 12) return;
    if (i % 200 === 199) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("test/crash-seam: the job never went quiet at a paused call");
}

export interface CrashPoint {
  /** `before 12 forge.createComment`, `after 12 forge.createComment`. */
  label: string;
  /** A copy of the job's whole temp root as the dead process left it. */
  dir: string;
}

/**
 * Runs a job once and keeps every distinct state a crash could leave: before each call the
 * engine makes through its ports, and after each one (its effect done, its answer lost).
 * The calls are serialised, and each copy is taken once the process has gone quiet, so a
 * copy is exactly what a process that died at that call leaves on disk. States equal to an
 * earlier one (a read-only call) are kept once. Restoring a copy into `root` and waking the
 * job with new deps is then the same as crashing there, without running the prefix again.
 */
export async function recordCrashPoints(options: {
  root: string;
  snapshots: string;
  /** Drives the job; states are kept only after `arm()` (all of them if it never disarms). */
  run: (seam: CrashSeam, arm: () => void) => Promise<void>;
  /** Start disarmed: keep states only from the call after `arm()`. */
  disarmed?: boolean;
}): Promise<CrashPoint[]> {
  let armed = options.disarmed !== true;
  const points: CrashPoint[] = [];
  const seen = new Set<string>();
  const names: string[] = [];
  const baseline = await busyBaseline();
  let lock: Promise<void> = Promise.resolve();
  let failure: Error | undefined;

  const capture = async (label: string) => {
    if (!armed) return;
    for (let attempt = 1; ; attempt++) {
      await quiet(baseline);
      const print = await fingerprint(options.root);
      if (seen.has(print)) return;
      const dir = join(options.snapshots, String(points.length));
      await copyTree(options.root, dir);
      // Nothing may have moved while the copy ran: a ref written then can name objects cp
      // had passed by, a state no crash leaves (git writes objects before the refs naming
      // them, so a tree whose other files held still while cp ran is copied whole). A
      // strand quiet() could not see did it: the copy is taken again once all are paused.
      // Not thrown: the engine catches what some calls throw (the journal's push).
      if ((await fingerprint(options.root)) === print) {
        seen.add(print);
        points.push({ label, dir });
        return;
      }
      await rm(dir, { recursive: true, force: true });
      if (attempt === 20) {
        failure ??= new Error(
          `test/crash-seam: the job never held still while ${label} was copied`,
        );
        return;
      }
    }
  };

  const guard = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
    const previous = lock;
    let release!: () => void;
    lock = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      names.push(name);
      const index = names.length;
      await capture(`before ${index} ${name}`);
      const result = await call();
      await capture(`after ${index} ${name}`);
      return result;
    } finally {
      release();
    }
  };

  const wrap = <T extends object>(prefix: string, target: T): T =>
    new Proxy(target, {
      get(object, key, receiver) {
        const value: unknown = Reflect.get(object, key, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) =>
          guard(`${prefix}.${String(key)}`, () =>
            Promise.resolve((value as (...a: unknown[]) => unknown).apply(object, args)),
          );
      },
    });

  const seam: CrashSeam = {
    names,
    forge: (forge) => wrap("forge", forge),
    model: (model) => wrap("model", model),
    workspaces: (workspaces) => wrap("workspaces", workspaces),
  };
  await options.run(seam, () => (armed = true));
  if (failure) throw failure;
  return points;
}

/** Puts a recorded state back in place of the job's temp root. */
export async function restoreCrashPoint(point: CrashPoint, root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
  await copyTree(point.dir, root);
}

async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await execFileAsync("cp", ["-a", from, to]);
}

/**
 * A digest of everything a resumed wake could read under `root`: every file but git's
 * content-addressed objects (refs and the index say which of them matter).
 */
async function fingerprint(root: string): Promise<string> {
  const hash = createHash("sha256");
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === "objects" && dir.endsWith(".git")) continue;
        await walk(path);
      } else if (entry.isSymbolicLink()) {
        hash.update(`${path} -> ${await readlink(path)}\n`);
      } else {
        hash.update(`${path}\n`);
        hash.update(await readFile(path));
      }
    }
  };
  await walk(root);
  return hash.digest("hex");
}
