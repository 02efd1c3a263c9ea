// Turns without a round barrier (docs/protocol.md#message-soup: different (A, t) instances run in
// parallel without synchronisation). An instance's turn starts as soon as its mailbox has mail and
// one of the job's slots is free (fanOut + 1 turns at once: the lead and one full fan-out of
// workers; the protocol's per-parent fan-out still queues dispatches past `fanOut`); a turn
// that ends is handed to the wake at once, which applies it — one at a time, the wake being
// the job branch's single writer — while the others keep running (wake.ts).
//
// Order of application. `finished` (live models): the order turns end in, so a fast worker's
// reply reaches its lead without waiting for a slow sibling. `started` (recorded replays: the
// demo, `cfa replay`): the order turns started in, so the records are the same at every
// replay whatever order the file system answers in — a scripted model answers at once, so
// waiting for the turn started earlier costs nothing there.
//
// Starting order: fair-order.ts (first come, first served). A cascade (a withdrawal, a state's
// end, a task closed) that consumes a running turn's Run aborts that turn: its calls stay
// journalled and charged, nothing of it is applied (`abortConsumed`).

import { addressKey, type Address } from "../../protocol/address.js";
import { isLiveState } from "../../protocol/fsm.js";
import { ORCHESTRATOR, progress, type Session } from "../job/session.js";
import { fairOrder, noteRunnable } from "./fair-order.js";
import { runsElsewhere } from "../fanout/dispatch-task-run.js";
import { runInstanceTurn, type InstanceTurn } from "./run-instance-turn.js";

export type ApplyOrder = "finished" | "started";

/** A turn that ended: applied by the wake unless `aborted` (consumed by a cascade, or stopped). */
export interface EndedTurn {
  turn: InstanceTurn;
  /** Why it was stopped before it ended on its own, or null. */
  aborted: string | null;
}

interface Flight {
  key: string;
  a: Address;
  /** Start order. */
  seq: number;
  controller: AbortController;
  aborted: string | null;
  ended: InstanceTurn | null;
  /** End order, once ended. */
  endSeq: number;
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export interface SchedulerOptions {
  /** Turns at once, job-wide. */
  capacity: number;
  order: ApplyOrder;
  /** The wake's own signal (Ctrl-C, a cancelled run): every turn stops with it. */
  signal?: AbortSignal | undefined;
  /** Runs one turn (tests replace it); default run-instance-turn.ts. */
  runTurn?: (s: Session, a: Address, signal: AbortSignal) => Promise<InstanceTurn>;
}

export class TurnScheduler {
  private readonly flights = new Map<string, Flight>();
  private readonly queuedSince = new Map<string, number>();
  private readonly lastStarted = new Map<string, number>();
  private decisions = 0;
  private seq = 0;
  private endSeq = 0;
  private notify: (() => void) | null = null;
  /** Turns that ended and are not applied yet, by key: settled once applied or dropped. */
  private readonly unapplied = new Map<string, Deferred>();

  constructor(
    private readonly s: Session,
    private readonly options: SchedulerOptions,
  ) {}

  /** Turns running or ended and not yet handed out. */
  get size(): number {
    return this.flights.size;
  }

  /** Keys of turns still running (not ended). */
  running(): string[] {
    return [...this.flights.values()].filter((f) => f.ended === null).map((f) => f.key);
  }

  /** The instances that may run now and are not running, the orchestrator aside. */
  runnable(): string[] {
    const orchestrator = addressKey(ORCHESTRATOR);
    return (
      this.s.soup
        .runnable()
        // A task in a run of its own is that run's to work on.
        .filter((a) => !runsElsewhere(this.s, a.thread))
        .map(addressKey)
        .filter((k) => k !== orchestrator && !this.flights.has(k))
    );
  }

  /**
   * One scheduling decision: queues what became runnable, then starts queued instances in
   * fair order while slots are free. Returns the keys started.
   */
  startRunnable(): string[] {
    this.decisions += 1;
    const runnable = this.runnable();
    noteRunnable(this.queuedSince, runnable, this.decisions);
    const free = Math.max(0, this.options.capacity - this.flights.size);
    const chosen = fairOrder(runnable, {
      queuedSince: this.queuedSince,
      lastStarted: this.lastStarted,
    }).slice(0, free);
    const byKey = new Map(this.s.soup.runnable().map((a) => [addressKey(a), a]));
    for (const key of chosen) this.launch(byKey.get(key)!, false);
    return chosen;
  }

  /**
   * Starts one instance's turn now, whatever the slots say: a lead woken by an intervention
   * ([wake-int], docs/protocol.md#intervention) does not wait for a slot (intervene.ts
   * `lateJoin`).
   */
  launch(a: Address, late = true): void {
    const key = addressKey(a);
    if (this.flights.has(key)) return;
    if (!this.s.soup.runnable().some((r) => addressKey(r) === key)) return;
    if (runsElsewhere(this.s, a.thread)) return;
    this.queuedSince.delete(key);
    this.lastStarted.set(key, this.decisions);
    const controller = new AbortController();
    const flight: Flight = {
      key,
      a,
      seq: this.seq++,
      controller,
      aborted: null,
      ended: null,
      endSeq: -1,
    };
    this.flights.set(key, flight);
    if (late)
      progress(this.s, this.s.job.state, "JOIN", `${key} starts at once, without a slot`, true);
    else progress(this.s, this.s.job.state, "START", key, true);
    const signal = this.options.signal
      ? AbortSignal.any([this.options.signal, controller.signal])
      : controller.signal;
    const run = this.options.runTurn ?? runInstanceTurn;
    void run(this.s, a, signal)
      .catch((error: unknown): InstanceTurn => ({
        a,
        woke: { events: [], effects: [], message: { kind: "observe", text: "" }, rule: "wake" },
        preempted: [],
        ws: this.s.jobWs,
        run: null,
        error: error as Error,
      }))
      .then((turn) => {
        flight.ended = turn;
        flight.endSeq = this.endSeq++;
        if (!this.unapplied.has(key)) this.unapplied.set(key, deferred());
        this.notify?.();
      });
  }

  /**
   * The next turn to apply: in `finished` order the first that ended, in `started` order the
   * oldest once it ended. Waits for one; null when nothing is running.
   */
  async next(giveUp?: () => boolean): Promise<EndedTurn | null> {
    for (;;) {
      const pick = this.pick();
      if (pick !== null) {
        this.flights.delete(pick.key);
        return { turn: pick.ended!, aborted: pick.aborted };
      }
      if (this.flights.size === 0 || giveUp?.() === true) return null;
      await new Promise<void>((resolve) => (this.notify = resolve));
      this.notify = null;
    }
  }

  /** The wake applied (or dropped) the turn `next` handed out for `key`. */
  settled(key: string): void {
    this.unapplied.get(key)?.resolve();
    this.unapplied.delete(key);
  }

  /**
   * Resolves once every turn on `thread` — ended, or still running — is applied (or dropped).
   * A lead's `close` of a task waits on it (tasks/verify-task.ts): the verifier must see the
   * worker's work committed on its branch, and the merge take exactly what the verifier saw.
   * A worker's turn still running when its lead closes the task runs to its end first: the
   * close's Terminate reaches the soup only when the lead's turn is applied, after the
   * verdict, so the worker's Run ending before it is a valid order of the reductions ([term-run]
   * then consumes nothing; docs/protocol.md#workspaces); cut short, the worker's files would be
   * thrown away and a verifier would pass the branch without them. In `started` order nothing is
   * waited for — a turn that started earlier would be applied first, and that may be the closing
   * lead's own.
   */
  appliedOn(thread: string): Promise<void> {
    if (this.options.order === "started") return Promise.resolve();
    const waits: Promise<void>[] = [];
    const on = (key: string, a: Address | null) =>
      a === null ? key.endsWith(`@${thread}`) : a.thread === thread;
    for (const f of this.flights.values()) {
      if (f.ended !== null || !on(f.key, f.a)) continue;
      // Settled once applied or dropped, as an ended turn's is (launch's `then`).
      if (!this.unapplied.has(f.key)) this.unapplied.set(f.key, deferred());
      progress(this.s, f.key, "WAIT", "its lead closes its task: this turn ends first", true);
    }
    for (const [key, d] of this.unapplied) {
      const f = this.flights.get(key);
      if (on(key, f?.a ?? null)) waits.push(d.promise);
    }
    return Promise.all(waits).then(() => undefined);
  }

  /** Wakes a `next` that waits, so it looks at its `giveUp` again (a stop came). */
  poke(): void {
    this.notify?.();
  }

  /** A turn handed out and not applied goes back, to be stopped with the rest (`stopAll`). */
  putBack(ended: EndedTurn): void {
    const key = addressKey(ended.turn.a);
    this.flights.set(key, {
      key,
      a: ended.turn.a,
      seq: -1,
      controller: new AbortController(),
      aborted: ended.aborted ?? "the wake stopped before it was applied",
      ended: ended.turn,
      endSeq: -1,
    });
  }

  /** Stops every running turn now (a cancelled run); they end and are handed out as aborted. */
  abortRunning(reason: string): void {
    for (const f of this.flights.values())
      if (f.ended === null && f.aborted === null) this.abort(f, reason);
  }

  /**
   * After anything that may cascade (an applied turn, people's events, a proxy's answer):
   * every running turn whose Run the soup no longer holds — or every one, once the job has
   * ended — is stopped. Returns the keys stopped now.
   */
  abortConsumed(): string[] {
    const stopped: string[] = [];
    for (const f of this.flights.values()) {
      if (f.aborted !== null || f.ended !== null) continue;
      const live = isLiveState(this.s.job.state);
      if (live && this.s.soup.stateOf(f.a) === "Run") continue;
      this.abort(f, live ? "its Run was consumed by a cascade" : `the job is ${this.s.job.state}`);
      stopped.push(f.key);
    }
    return stopped;
  }

  /** Stops every running turn and waits until each has ended; they are not applied. */
  async stopAll(
    reason: string,
    /**
     * `atBoundary`: do not cut them — they stop at their next model call on their own (the
     * wake's `stopping` reason is set), so no call in flight is paid and lost.
     */
    options: { atBoundary?: boolean } = {},
  ): Promise<EndedTurn[]> {
    for (const f of this.flights.values()) {
      if (f.ended !== null) continue;
      if (options.atBoundary === true) f.aborted ??= reason;
      else this.abort(f, reason);
    }
    const ended: EndedTurn[] = [];
    for (let next = await this.next(); next !== null; next = await this.next()) {
      ended.push(next);
      this.settled(addressKey(next.turn.a));
    }
    return ended;
  }

  private abort(f: Flight, reason: string): void {
    f.aborted = reason;
    progress(this.s, f.key, "STOPPED", reason, true);
    f.controller.abort(new Error(`cfa/engine: ${f.key}: ${reason}`));
  }

  private pick(): Flight | null {
    let best: Flight | null = null;
    for (const f of this.flights.values()) {
      if (this.options.order === "started") {
        if (best === null || f.seq < best.seq) best = f;
      } else if (f.ended !== null && (best === null || f.endSeq < best.endSeq)) {
        best = f;
      }
    }
    return best !== null && best.ended !== null ? best : null;
  }
}
