// Time and identifiers are passed in: the protocol and engine never read a clock or a
// random source directly, so runs replay exactly.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that advances one second per reading, from a fixed start: for tests and replay. */
export function steppingClock(start = "2026-01-01T00:00:00.000Z", stepMs = 1000): Clock {
  let t = Date.parse(start);
  return {
    now: () => {
      const d = new Date(t);
      t += stepMs;
      return d;
    },
  };
}
