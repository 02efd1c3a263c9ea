// The memory the webhook endpoint may hold in bodies whose signature is not checked yet
// (left unbounded, 120 unsigned connections each holding 4.9 MB of an unfinished body added
// 424 MiB). A body's signature covers all of it, so it must be held until it ends; what is
// bounded is how much of that all unfinished bodies hold together, and how many there are.
//
// When a new body or chunk would pass a bound, the OLDEST unfinished body is evicted, not
// the newcomer: GitHub sends a delivery's body at once (it is small and on a fast link), so
// the bodies that linger are the ones nobody means to finish, and a flood of them cannot
// crowd out a real delivery arriving behind it. Pure bookkeeping: the endpoint decides what
// eviction means (the connection cut).

export interface BodyBudgetLimits {
  /** Bytes all unfinished bodies may hold together. */
  maxBytes: number;
  /** Unfinished bodies at once. */
  maxBodies: number;
}

export interface BodyLease {
  /** Counts `bytes` more of this body; evicts older bodies to make room. */
  take(bytes: number): void;
  /** The body ended, failed or was evicted: its bytes are free. Idempotent. */
  release(): void;
}

export interface BodyBudget {
  /** A new unfinished body; `evict` is called at most once, if it must give way. */
  admit(evict: () => void): BodyLease;
  /** Bytes held by unfinished bodies now. */
  heldBytes(): number;
  /** Unfinished bodies now. */
  bodies(): number;
  /** Bodies evicted since the start (logged, and read by tests). */
  evicted(): number;
}

interface Entry {
  bytes: number;
  evict(): void;
}

export function createBodyBudget(limits: BodyBudgetLimits): BodyBudget {
  if (!(limits.maxBytes > 0) || !(limits.maxBodies >= 1)) {
    throw new RangeError("cfa/app: a body budget needs a positive byte and body limit");
  }
  // A Map iterates in insertion order: the first entry is the oldest unfinished body.
  const open = new Map<object, Entry>();
  let held = 0;
  let evictions = 0;

  const drop = (key: object): Entry | undefined => {
    const entry = open.get(key);
    if (entry === undefined) return undefined;
    open.delete(key);
    held -= entry.bytes;
    return entry;
  };
  const makeRoom = (self: object): void => {
    for (const key of open.keys()) {
      if (held <= limits.maxBytes && open.size <= limits.maxBodies) return;
      if (key === self) continue;
      const entry = drop(key);
      if (entry !== undefined) {
        evictions += 1;
        entry.evict();
      }
    }
  };

  return {
    admit(evict) {
      const key = {};
      open.set(key, { bytes: 0, evict });
      makeRoom(key);
      return {
        take(bytes) {
          const entry = open.get(key);
          if (entry === undefined) return;
          entry.bytes += bytes;
          held += bytes;
          makeRoom(key);
        },
        release() {
          drop(key);
        },
      };
    },
    heldBytes: () => held,
    bodies: () => open.size,
    evicted: () => evictions,
  };
}
