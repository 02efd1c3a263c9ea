// Git writes to one repository or worktree run one at a time: turns run in parallel, their
// commits do not, and two closes into the same parent at once would race for the index
// lock. A task that fails does not stop the ones queued after it.

export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task, task);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
