// At most one effect per delivery id and per comment or review id: a small
// in-memory LRU per process. It only saves work: the worker re-reads GitHub at every wake
// and applies each comment and review once (its cursor), so a duplicate that slips past a
// restart costs one worker run, never a second effect on the job.

export interface Dedupe {
  /** True when any of the keys was remembered. */
  seen(...keys: string[]): boolean;
  remember(...keys: string[]): void;
  /** Lets the keys take effect again (the server's queued effects failed). */
  forget(...keys: string[]): void;
}

export const DEFAULT_DEDUPE_CAPACITY = 2000;

export function createDedupe(capacity = DEFAULT_DEDUPE_CAPACITY): Dedupe {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new RangeError(
      `cfa/app: the dedupe capacity must be a positive integer, not ${capacity}`,
    );
  }
  // A Map iterates in insertion order: re-inserting a key makes it the newest.
  const keys = new Map<string, true>();
  return {
    seen: (...wanted) => wanted.some((key) => keys.has(key)),
    remember(...added) {
      for (const key of added) {
        keys.delete(key);
        keys.set(key, true);
        if (keys.size > capacity) {
          const oldest = keys.keys().next();
          if (!oldest.done) keys.delete(oldest.value);
        }
      }
    },
    forget(...removed) {
      for (const key of removed) keys.delete(key);
    },
  };
}
