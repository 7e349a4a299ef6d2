import { seededRandom, shuffle } from './random';

/**
 * Keys with Zipf-like repeats, the shape of real catalogue data (titles, names):
 * a few keys very frequent, most seen once or twice.
 */
export interface GeneratedKeys {
  /** Distinct raw (not normalized) keys; `titles` because titles came first. */
  readonly titles: string[];
  /** Copies of each key; they sum to `keys`. */
  readonly counts: Int32Array;
}

/** Assigns rank r ≈ top · r^-exponent copies (at least 1) to fresh distinct keys until `keys` are placed. */
export function zipfCounts(keys: number, top: number, exponent: number, fresh: () => string): GeneratedKeys {
  const seen = new Set<string>();
  const titles: string[] = [];
  const counts: number[] = [];
  let placed = 0;
  for (let rank = 1; placed < keys; rank++) {
    let title = fresh();
    for (let tries = 0; seen.has(title); tries++) {
      title = tries < 50 ? fresh() : `${fresh()} ${rank}`;
    }
    seen.add(title);
    const count = Math.min(keys - placed, Math.max(1, Math.floor(top * Math.pow(rank, -exponent))));
    titles.push(title);
    counts.push(count);
    placed += count;
  }
  return { titles, counts: Int32Array.from(counts) };
}

/** Every copy of every key, in a seeded random order (as lines of a dump would come). */
export function shuffledCopies(generated: GeneratedKeys, seed = 7): Int32Array {
  let total = 0;
  for (const count of generated.counts) total += count;
  const order = new Int32Array(total);
  let at = 0;
  generated.counts.forEach((count, index) => {
    order.fill(index, at, at + count);
    at += count;
  });
  shuffle(seededRandom(seed), order);
  return order;
}
