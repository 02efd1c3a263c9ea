// How long a test may run before it is taken for hung. Tests wait for the events they need,
// never for time; a bound is only a hang detector. On a machine shared with other work (CI
// runs beside other jobs) the same work takes several times longer, and a fixed bound then
// fails a test that was only slow — twelve did, every one on a fixed 60 s, with a second suite
// running beside this one. So a bound scales with how busy the machine is when it is taken:
// the one-minute load average per core, at least 1, at most 8 (CFA_TEST_TIME_SCALE sets the
// factor outright). A file takes its bounds when it starts (test/support/time-bound-setup.ts
// sets the default for its tests), so a file started under load gets room for it.
import { availableParallelism, loadavg } from "node:os";

const MAX_SCALE = 8;

/** The factor bounds are multiplied by now: how many times busier than idle the cores are. */
export function timeScale(): number {
  const forced = Number(process.env.CFA_TEST_TIME_SCALE);
  if (Number.isFinite(forced) && forced > 0) return forced;
  const perCore = loadavg()[0]! / availableParallelism();
  return Math.min(MAX_SCALE, Math.max(1, perCore));
}

/** A hang bound of `ms` on an idle machine, scaled to the machine as it is now. */
export function bound(ms: number): number {
  return Math.ceil(ms * timeScale());
}
