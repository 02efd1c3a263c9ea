// The run's clean stop before the runner's time limit (so a long job goes on in its next run,
// not after the hourly sweep) and when it fires, by the engine's clock: the time
// `execute.runners: auto` weighs as the lead run's time left.

import { describe, expect, it } from "vitest";
import { runStop } from "../../../src/worker/wake-again.js";
import type { WorkerContext } from "../../../src/worker/worker-context.js";

describe("runStop", () => {
  it("stops runMinutes less stopMarginMinutes after the wake starts, and says when by the run's clock (320 of 340 minutes)", () => {
    const start = Date.parse("2026-11-26T08:00:00.000Z");
    let armed: { ms: number; fire: () => void } | null = null;
    const w = {
      clock: { now: () => new Date(start) },
      deadlineTimer: (ms: number, fire: () => void) => {
        armed = { ms, fire };
        return () => {};
      },
    } as unknown as WorkerContext;
    const stop = runStop(w, { runMinutes: 340, stopMarginMinutes: 20 });
    expect(armed!.ms).toBe(320 * 60_000);
    expect(stop.stopAt).toBe(start + 320 * 60_000);
    expect(stop.signal.aborted).toBe(false);
    armed!.fire();
    expect(stop.signal.aborted).toBe(true);
  });
});
