// A seam where the process "dies" at the N-th call the engine makes through its ports (the
// forge, the model, the workspaces). Death is a hang, not a throw: the engine catches
// errors in places (a failed turn is recorded, a tool error goes back to the model), and a
// dead process records nothing more. So the N-th call, and every call after it, never
// returns; turns running beside it stop at their own next call, as if the crash had come
// while their call was in flight. `settled()` then waits until nothing of the dead wake
// still touches disk, and a new wake (new deps over the same repository and work dir)
// resumes the job.

import type { Forge } from "../../../src/ports/forge.js";
import type { Model } from "../../../src/ports/model.js";
import type { Workspaces } from "../../../src/ports/workspaces.js";

/** Before: the call never happens. After: its effect happens, its answer is lost. */
export const CRASH_MODES = ["before", "after"] as const;
export type CrashMode = (typeof CRASH_MODES)[number];

export interface CrashSeam {
  /** Number of calls made so far (the crashing call included). */
  readonly calls: number;
  /** Names of the calls made, in order (`forge.createComment`, `model.complete`, …). */
  readonly names: string[];
  /** Whether the process has died. */
  readonly dead: boolean;
  /** Resolves when the process dies (never, if it does not). */
  readonly died: Promise<void>;
  forge(forge: Forge): Forge;
  model(model: Model): Model;
  workspaces(workspaces: Workspaces): Workspaces;
}

/** `at` null: count calls, never die. */
export function createCrashSeam(at: number | null, mode: CrashMode = "before"): CrashSeam {
  const names: string[] = [];
  let dead = false;
  let die!: () => void;
  const died = new Promise<void>((resolve) => (die = resolve));
  const never = () => new Promise<never>(() => {});

  const guard = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
    if (dead) return never();
    names.push(name);
    if (names.length !== at) return call();
    if (mode === "before") {
      dead = true;
      die();
      return never();
    }
    await call();
    dead = true;
    die();
    return never();
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

  return {
    get calls() {
      return names.length;
    },
    names,
    get dead() {
      return dead;
    },
    died,
    forge: (forge) => wrap("forge", forge),
    model: (model) => wrap("model", model),
    workspaces: (workspaces) => wrap("workspaces", workspaces),
  };
}

/** Kinds of resources a wake's unwrapped work holds while it runs: files and git processes. */
const BUSY = ["FSReqPromise", "FSReqCallback", "ProcessWrap", "PipeWrap", "Timeout"];

function busyCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    if (BUSY.includes(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/**
 * A snapshot of what this process holds before a wake starts; `quiet(baseline)` resolves
 * once it holds no more than that, i.e. once every piece of the dead wake waits on a call
 * that will never return. Between macrotasks every live continuation waits on some
 * resource, so an event-loop turn with none left means none will start again.
 */
export function busyBaseline(): Map<string, number> {
  return busyCounts();
}

export async function quiet(baseline: Map<string, number>): Promise<void> {
  let calm = 0;
  for (let i = 0; i < 100_000; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = busyCounts();
    const busy = [...now].some(([kind, n]) => n > (baseline.get(kind) ?? 0));
    calm = busy ? 0 : calm + 1;
    if (calm >= 3) return;
    if (i % 200 === 199) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("test/crash-seam: the dead wake never went quiet");
}
