// A small seeded PRNG (mulberry32) so that every game of the differential harness is
// reproducible from its seed.

export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    /** A float in [0, 1). */
    next,
    /** An integer in [0, n). */
    int: (n) => Math.floor(next() * n),
    /** True with probability p. */
    chance: (p) => next() < p,
    /** A random element of a non-empty array. */
    pick: (arr) => arr[Math.floor(next() * arr.length)],
  };
}
