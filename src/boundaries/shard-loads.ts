import { compareKeys } from '../core/collation';
import type { KeyCounts } from './key-counts';

/**
 * Where each distinct value goes under a boundary list, walked in one merge pass
 * (values and boundaries are both sorted): shards first..last, where a value equal
 * to a repeated boundary (a heavy hitter) spreads over the whole run and any other
 * value has first === last === bisect_right(boundaries, value) - 1.
 */
export function forEachPlacement(
  boundaries: readonly string[],
  keys: KeyCounts,
  visit: (index: number, first: number, last: number) => void,
): void {
  let shard = 0;
  for (let i = 0; i < keys.values.length; i++) {
    const value = keys.values[i]!;
    while (shard + 1 < boundaries.length && compareKeys(boundaries[shard + 1]!, value) <= 0) shard++;
    let first = shard;
    if (boundaries[shard] === value) {
      while (first > 0 && boundaries[first - 1] === value) first--;
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
  let max = 0;
  let min = Infinity;
  let sum = 0;
  for (let i = 0; i < loads.length; i++) {
    const load = loads[i]!;
    max = Math.max(max, load);
    min = Math.min(min, load);
    sum += load;
  }
  const mean = loads.length > 0 ? sum / loads.length : 0;
  return { max, min: loads.length > 0 ? min : 0, mean, maxOverMean: mean > 0 ? max / mean : 1 };
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
      found.push({ value: keys.values[i]!, count: keys.counts[i]!, shards });
    }
  });
  return found;
}
