// A work queue that starts what fair-schedule.ts picks: at most `concurrency` pieces of
// work at once, and at most `perSource` of one source, so a source with a thousand items
// waiting holds at most `perSource` of the slots and every other source's next item starts
// as soon as a slot frees. The effects: promises and a count of what runs.

import { createFairSchedule, type FairKey } from "./fair-schedule.js";

export interface FairQueueOptions {
  concurrency: number;
  perSource: number;
}

export interface FairQueue {
  /** Runs `work` when its turn comes; settles as it does. */
  add<T>(key: FairKey, work: () => Promise<T>): Promise<T>;
  /** Waiting, not started. */
  waiting(): number;
  /** Waiting or running for one source. */
  sizeOf(source: string): number;
  /** Started and not settled. */
  running(): number;
}

interface Waiting extends FairKey {
  start(): void;
}

export function createFairQueue(options: FairQueueOptions): FairQueue {
  if (!(options.concurrency >= 1) || !(options.perSource >= 1)) {
    throw new RangeError("cfa/app: a fair queue needs a concurrency and perSource of at least 1");
  }
  const schedule = createFairSchedule<Waiting>();
  const runningBy = new Map<string, number>();
  let running = 0;

  const blocked = (source: string) => (runningBy.get(source) ?? 0) >= options.perSource;
  const pump = (): void => {
    while (running < options.concurrency) {
      const item = schedule.next(blocked);
      if (item === undefined) return;
      running += 1;
      runningBy.set(item.source, (runningBy.get(item.source) ?? 0) + 1);
      item.start();
    }
  };
  const finished = (source: string): void => {
    running -= 1;
    const left = (runningBy.get(source) ?? 1) - 1;
    if (left === 0) runningBy.delete(source);
    else runningBy.set(source, left);
    pump();
  };

  return {
    add(key, work) {
      return new Promise((resolve, reject) => {
        schedule.push({
          ...key,
          start: () => {
            // Started on a later tick than add(), never inside the caller's own frame.
            void Promise.resolve()
              .then(work)
              .then(resolve, reject)
              .finally(() => finished(key.source));
          },
        });
        pump();
      });
    },
    waiting: () => schedule.size(),
    sizeOf: (source) => schedule.sizeOf(source) + (runningBy.get(source) ?? 0),
    running: () => running,
  };
}
