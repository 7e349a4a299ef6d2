import { bisectLeftIn } from '../core/collation';
import type { KeyCounts } from './key-counts';

/**
 * Where each distinct value goes under a boundary list (both sorted): shards first..last, a run for a
 * heavy hitter, else bisect_right(boundaries, value) - 1. Boundaries are found by binary search, so few
 * values are read: they may be bytes decoded on demand.
 */
export function forEachPlacement(
  boundaries: readonly string[],
  keys: KeyCounts,
  visit: (index: number, first: number, last: number) => void,
): void {
  const n = keys.values.length;
  // starts[b]: the first value at or above boundaries[b], where shard b begins.
  const starts = new Int32Array(boundaries.length);
  for (let b = 1; b < boundaries.length; b++) starts[b] = bisectLeftIn(keys.values, boundaries[b]!, starts[b - 1]!);
  let shard = 0;
  for (let i = 0; i < n; i++) {
    while (shard + 1 < boundaries.length && starts[shard + 1]! <= i) shard++;
    let first = shard;
    if (starts[shard] === i && boundaries[shard] === keys.values.at(i)) {
      while (first > 0 && boundaries[first - 1] === boundaries[shard]) first--;
    }
    visit(i, first, shard);
  }
}

/** Items per shard, a heavy hitter's items divided evenly over its run (the spread rule). */
export function shardLoads(boundaries: readonly string[], keys: KeyCounts): Float64Array {
  const loads = new Float64Array(boundaries.length);
  forEachPlacement(boundaries, keys, (i, first, last) => {
    const share = keys.counts[i]! / (last - first + 1);
    for (let s = first; s <= last; s++) loads[s]! += share;
  });
  return loads;
}

export interface Balance {
  readonly max: number;
  readonly min: number;
  readonly mean: number;
  /** Largest shard over the mean: 1 is perfect. */
  readonly maxOverMean: number;
}

export function balanceOf(loads: ArrayLike<number>): Balance {
  const values = Array.from(loads);
  const max = values.reduce((m, load) => Math.max(m, load), 0);
  const min = values.length > 0 ? values.reduce((m, load) => Math.min(m, load), Infinity) : 0;
  const mean = values.length > 0 ? values.reduce((sum, load) => sum + load, 0) / values.length : 0;
  return { max, min, mean, maxOverMean: mean > 0 ? max / mean : 1 };
}

export interface HeavyHitter {
  readonly value: string;
  readonly count: number;
  /** The run of shards its items spread over. */
  readonly shards: readonly number[];
}

/** The values a boundary list spreads (repeated boundaries), with their item counts. */
export function heavyHittersOf(boundaries: readonly string[], keys: KeyCounts): HeavyHitter[] {
  const found: HeavyHitter[] = [];
  forEachPlacement(boundaries, keys, (i, first, last) => {
    if (last > first) {
      const shards = Array.from({ length: last - first + 1 }, (_, j) => first + j);
      found.push({ value: keys.values.at(i)!, count: keys.counts[i]!, shards });
    }
  });
  return found;
}
