// What one egress proxy refused, for its command's result: one entry per kind (host, port,
// protocol, reason), identical refusals counted. The list is bounded, and nothing past the
// bound goes uncounted: when it is full, the kind seen least recently makes room for the new
// one (the newest kinds are kept, so an agent cannot hide the request that matters behind a
// hundred junk refusals made first), and its count moves to an "others" entry of its reason
// — host `*` — that never stops counting.

import type { BlockReason, BlockedRequest } from "../../ports/sandbox.js";

/** The host of an entry that counts refusals of kinds no longer listed. */
export const OTHER_HOSTS = "*";

export class RefusalLog {
  /** Kinds by key, in the order last seen (a Map keeps insertion order; a hit re-inserts). */
  private readonly kinds = new Map<string, BlockedRequest>();
  private readonly others = new Map<BlockReason, BlockedRequest>();

  constructor(
    private readonly command: readonly string[],
    /** Kinds listed at most, the "others" entries aside. */
    private readonly maxKinds: number,
  ) {}

  record(
    host: string,
    port: number,
    protocol: BlockedRequest["protocol"],
    reason: BlockReason,
  ): void {
    const key = `${protocol} ${host} ${port} ${reason}`;
    const seen = this.kinds.get(key);
    if (seen !== undefined) {
      seen.count += 1;
      this.kinds.delete(key);
      this.kinds.set(key, seen);
      return;
    }
    if (this.kinds.size >= this.maxKinds) {
      const [oldestKey, oldest] = this.kinds.entries().next().value as [string, BlockedRequest];
      this.kinds.delete(oldestKey);
      const other = this.others.get(oldest.reason);
      if (other !== undefined) other.count += oldest.count;
      else {
        this.others.set(oldest.reason, {
          host: OTHER_HOSTS,
          port: 0,
          protocol: "tcp",
          reason: oldest.reason,
          command: [...this.command],
          count: oldest.count,
        });
      }
    }
    this.kinds.set(key, { host, port, protocol, reason, command: [...this.command], count: 1 });
  }

  /** The kinds listed, least recently seen first, then the "others" entries. */
  entries(): BlockedRequest[] {
    return [...this.kinds.values(), ...this.others.values()].map((entry) => ({
      ...entry,
      command: [...entry.command],
    }));
  }

  /** Every refusal recorded, listed or not. */
  get total(): number {
    let n = 0;
    for (const entry of [...this.kinds.values(), ...this.others.values()]) n += entry.count;
    return n;
  }
}
