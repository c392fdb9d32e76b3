/** A uniform random source on [0, 1). */
export type Random = () => number;

/** A small deterministic generator (mulberry32): the same seed, the same numbers, for reproducible random tests. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [lo, hi]. */
export const randomInt = (random: Random, lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
