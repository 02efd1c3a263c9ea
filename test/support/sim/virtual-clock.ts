// Virtual time for the fan-out simulation: a six-hour job runs in seconds.
// Actors (runs, the sweep) are async strands; real work in between (git, the file system)
// takes no virtual time. The clock moves only when every strand is waiting on it — then to the
// earliest timer — so what happens at one virtual instant finishes before the next begins.

export class Killed extends Error {
  override readonly name = "Killed";
}

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

export class VirtualClock {
  now = 0;
  private timers: Timer[] = [];
  private seq = 0;
  private busy = 0;
  private idle: (() => void) | null = null;

  /** Runs `fn` as a strand: the clock waits for it whenever it is not sleeping. */
  strand<T>(fn: () => Promise<T>): Promise<T> {
    this.busy += 1;
    return (async () => {
      try {
        return await fn();
      } finally {
        this.release();
      }
    })();
  }

  /** Waits for other strands (`p`) without holding the clock back meanwhile. */
  async join<T>(p: Promise<T>): Promise<T> {
    this.release();
    try {
      return await p;
    } finally {
      this.busy += 1;
    }
  }

  /** Calls `fire` at virtual time `now + ms` (not a strand: it must not block). */
  at(ms: number, fire: () => void): void {
    this.timers.push({ at: this.now + Math.max(0, ms), seq: this.seq++, fire });
  }

  /** Sleeps `ms` of virtual time; throws Killed if `alive()` says no when it wakes. */
  async sleep(ms: number, alive: () => boolean = () => true): Promise<void> {
    if (!alive()) throw new Killed();
    await new Promise<void>((resolve) => {
      this.at(ms, () => {
        this.busy += 1;
        resolve();
      });
      this.release();
    });
    if (!alive()) throw new Killed();
  }

  /** Drives time until nothing is left to do, or `until` ms. Returns the virtual end time. */
  async drive(until: number): Promise<number> {
    for (;;) {
      const t0 = Date.now();
      await this.settled();
      if (process.env.CFA_SIM_DEBUG && Date.now() - t0 > 200)
        console.log("settle", Date.now() - t0, this.now, this.busy);
      if (this.timers.length === 0) return this.now;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      if (next.at > until) return this.now;
      this.now = Math.max(this.now, next.at);
      next.fire();
    }
  }

  private release(): void {
    this.busy -= 1;
    if (this.busy === 0) this.idle?.();
  }

  private async settled(): Promise<void> {
    // Real work resolves through the event loop: wait until no strand is busy.
    while (this.busy > 0) {
      await new Promise<void>((resolve) => (this.idle = resolve));
      this.idle = null;
      await new Promise((r) => setImmediate(r));
    }
  }
}
