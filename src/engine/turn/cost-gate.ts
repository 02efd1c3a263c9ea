// The cost cap at the model-call boundary (caps checked before every model
// call and after every charge, never exceeded by more than one call). Turns run in parallel,
// so "the spend is under the cap" before each call is not enough: three calls could start
// together and all land over it. A call therefore starts only when it is alone, or when the
// calls already in flight and this one, each estimated at the largest call seen so far,
// still fit under the cap; otherwise it waits for one in flight to settle and looks again.
// Until a call has been seen there is no estimate, and calls go one at a time.

export type Admission = { kind: "admit"; slot: number } | { kind: "over" };

export class CostGate {
  private readonly inFlight = new Map<number, number>();
  private readonly waiters: (() => void)[] = [];
  private largest = 0;
  private next = 1;

  /**
   * Waits until a call may start; `over` when the spend already exceeds the cap (the turn
   * stops). `spent` is read after every wait: a call that settled meanwhile was charged.
   */
  async admit(spent: () => number, cap: number): Promise<Admission> {
    for (;;) {
      const now = spent();
      if (now > cap) return { kind: "over" };
      const estimate = this.largest > 0 ? this.largest : Number.POSITIVE_INFINITY;
      let reserved = 0;
      for (const value of this.inFlight.values()) reserved += value;
      if (this.inFlight.size === 0 || now + reserved + estimate <= cap) {
        const slot = this.next++;
        this.inFlight.set(slot, estimate);
        return { kind: "admit", slot };
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** The call in `slot` settled (answered, failed or cut); `cost` when it was charged. */
  settle(slot: number, cost?: number): void {
    if (!this.inFlight.delete(slot)) return;
    if (cost !== undefined && cost > this.largest) this.largest = cost;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Calls in flight now (for tests and the bench). */
  get busy(): number {
    return this.inFlight.size;
  }
}
