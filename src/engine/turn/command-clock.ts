// How long a command would have taken alone on the lead's runner. Commands
// that run at once in one run share its cores; `npm run bench -- runners` models each as taking
// as many times longer as there are commands running, and `auto`'s break-even is set on task
// times measured alone. So what `auto` weighs is each command's time alone: its wall time
// divided, moment by moment, by the commands running with it (∫ dt / running). Measured on the
// engine's monotonic clock; kept by the wake (not a record).

export class CommandClock {
  private readonly running = new Map<number, number>();
  private next = 1;
  private last = 0;

  constructor(private readonly monotonic: () => number) {}

  /** A command starts: its ticket for `end`. */
  start(): number {
    this.advance();
    const ticket = this.next++;
    this.running.set(ticket, 0);
    return ticket;
  }

  /** A command ended: its time alone, in ms (its wall time when it ran alone throughout). */
  end(ticket: number): number {
    this.advance();
    const alone = this.running.get(ticket) ?? 0;
    this.running.delete(ticket);
    return alone;
  }

  /** Each running command accrues its share of the time since the last change. */
  private advance(): void {
    const now = this.monotonic();
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    const n = this.running.size;
    if (n === 0 || elapsed === 0) return;
    for (const [ticket, accrued] of this.running) this.running.set(ticket, accrued + elapsed / n);
  }
}
