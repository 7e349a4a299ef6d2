/**
 * A small seeded PRNG (mulberry32) for generated test and benchmark data: the same
 * seed gives the same data on every machine, unlike Math.random.
 */
export type Random = () => number;

/** Uniform numbers in [0, 1), the same sequence for the same seed (32-bit). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniformly random element. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** An element picked with Zipf-like weights 1 / (rank + 1)^exponent over the given order. */
export function pickZipf<T>(random: Random, items: readonly T[], exponent = 1): T {
  // Inverse of the continuous approximation of the Zipf CDF: cheap and close enough.
  const n = items.length;
  const u = random();
  let rank: number;
  if (Math.abs(exponent - 1) < 1e-9) rank = Math.floor(Math.pow(n + 1, u)) - 1;
  else {
    const a = 1 - exponent;
    rank = Math.floor(Math.pow(u * (Math.pow(n + 1, a) - 1) + 1, 1 / a)) - 1;
  }
  return items[Math.min(n - 1, Math.max(0, rank))]!;
}

/** Shuffles in place (Fisher–Yates). */
export function shuffle<T>(random: Random, items: T[] | Int32Array): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t as never;
  }
}
