// A command's time alone on the runner (what `execute.runners: auto` weighs): its wall time
// divided, moment by moment, by the commands running with it — the bench's model of commands
// sharing 2 cores.

import { describe, expect, it } from "vitest";
import { CommandClock } from "../../../../src/engine/turn/command-clock.js";

describe("CommandClock", () => {
  it("a command alone: its time alone is its wall time", () => {
    let t = 1000;
    const clock = new CommandClock(() => t);
    const a = clock.start();
    t += 300;
    expect(clock.end(a)).toBe(300);
  });

  it("two commands overlapping: the shared stretch counts half to each (a 0–10, b 4–8: 8 and 2)", () => {
    let t = 0;
    const clock = new CommandClock(() => t);
    const a = clock.start();
    t = 4;
    const b = clock.start();
    t = 8;
    expect(clock.end(b)).toBe(2);
    t = 10;
    expect(clock.end(a)).toBe(8);
  });

  it("three at once for 9 ms: 3 each; a command ended twice gives 0 the second time", () => {
    let t = 0;
    const clock = new CommandClock(() => t);
    const tickets = [clock.start(), clock.start(), clock.start()];
    t = 9;
    expect(tickets.map((k) => clock.end(k))).toEqual([3, 3, 3]);
    expect(clock.end(tickets[0]!)).toBe(0);
  });
});
