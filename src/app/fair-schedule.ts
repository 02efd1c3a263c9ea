// Which waiting piece of work starts next, so that a flood from one source cannot starve
// another (without it, 2,300 signed deliveries from one installation held a legitimate
// job's dispatch ~35 minutes behind them). Pure: no timers, no effects.
//
// Three levels, each fair in its own way:
// - sources (installations) take turns, round robin: one item from each source that has
//   work and is not at its limit, then round again;
// - within a source, the highest priority waiting goes first (a job's dispatch before any
//   👀 or reply: the dispatch is what matters);
// - within a priority, jobs take turns, round robin; within a job, first in, first out.
// So a source with 2,000 items waiting and one with 1 each start their next item in the
// same round, and a job with 100 👀 waiting does not hold another job's 👀 behind them.

export interface FairKey {
  /** Who the work is for (an installation); sources take turns. */
  source: string;
  /** Which job in it; jobs of one source and priority take turns. */
  job: string;
  /** Higher first, within a source. */
  priority: number;
}

export interface FairSchedule<T extends FairKey> {
  push(item: T): void;
  /**
   * Removes and returns the next item, skipping the sources `blocked` says are at their
   * limit; undefined when nothing may start.
   */
  next(blocked?: (source: string) => boolean): T | undefined;
  /** Items waiting. */
  size(): number;
  /** Items of one source waiting. */
  sizeOf(source: string): number;
  /** Sources with items waiting. */
  sources(): number;
}

interface SourceQueue<T> {
  count: number;
  /** Priority → jobs in turn order (a Map iterates in insertion order) → items in order. */
  levels: Map<number, Map<string, T[]>>;
}

export function createFairSchedule<T extends FairKey>(): FairSchedule<T> {
  // Insertion order is the turn order: a source that just had its turn goes to the back.
  const sources = new Map<string, SourceQueue<T>>();
  let total = 0;

  const takeFrom = (queue: SourceQueue<T>): T => {
    const top = Math.max(...queue.levels.keys());
    const jobs = queue.levels.get(top)!;
    const [job, items] = jobs.entries().next().value as [string, T[]];
    const item = items.shift()!;
    jobs.delete(job);
    if (items.length > 0) jobs.set(job, items); // to the back of its level's turn
    if (jobs.size === 0) queue.levels.delete(top);
    queue.count -= 1;
    return item;
  };

  return {
    push(item) {
      let queue = sources.get(item.source);
      if (queue === undefined) {
        queue = { count: 0, levels: new Map() };
        sources.set(item.source, queue);
      }
      let jobs = queue.levels.get(item.priority);
      if (jobs === undefined) {
        jobs = new Map();
        queue.levels.set(item.priority, jobs);
      }
      const items = jobs.get(item.job);
      if (items === undefined) jobs.set(item.job, [item]);
      else items.push(item);
      queue.count += 1;
      total += 1;
    },
    next(blocked = () => false) {
      for (const [source, queue] of sources) {
        if (blocked(source)) continue;
        const item = takeFrom(queue);
        sources.delete(source);
        if (queue.count > 0) sources.set(source, queue); // to the back of the round
        total -= 1;
        return item;
      }
      return undefined;
    },
    size: () => total,
    sizeOf: (source) => sources.get(source)?.count ?? 0,
    sources: () => sources.size,
  };
}
