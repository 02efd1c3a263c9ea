// A tiny seeded PRNG (mulberry32): the only randomness the bus knows, always passed in, so a
// seed replays the exact same interleaving.

export type Rng = () => number;

/** Uniform in [0, 1), deterministic for a given 32-bit seed. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n). */
export const pick = (rng: Rng, n: number): number => Math.floor(rng() * n);
