import type { KeyCounts } from './key-counts';

/**
 * Loads with the spread rule (a value spread over r shards puts count / r on each): a shard's load
 * is the difference of two cut positions (items before the cut), fractional inside a spread value.
 */
export interface LoadModel {
  readonly keys: KeyCounts;
  /** prefix[i] = items before values[i]; prefix[values.length] = total. */
  readonly prefix: Float64Array;
  readonly mean: number;
  /** Indexes of values heavier than the mean, ascending: the only ones that may be spread. */
  readonly big: Int32Array;
  /** True when the smallest value is '', which may share shard 0 (boundaries[0] is ''). */
  readonly startsEmpty: boolean;
}

/** Relative slack on every load comparison, so that c / r * r never fails on rounding. */
export const EPS = 1e-12;

export function loadModel(keys: KeyCounts, shards: number): LoadModel {
  const n = keys.values.length;
  const prefix = new Float64Array(n + 1);
  const mean = keys.total / shards;
  const big: number[] = [];
  for (let i = 0; i < n; i++) {
    const count = keys.counts[i]!;
    prefix[i + 1] = prefix[i]! + count;
    if (count > mean) big.push(i);
  }
  return { keys, prefix, mean, big: Int32Array.from(big), startsEmpty: keys.values.at(0) === '' };
}

/** Shards a value of `count` items takes under `max`: 1, or the fewest that bring each share under it (≤ count). */
export function piecesOf(count: number, max: number): number {
  const limit = max * (1 + EPS);
  return count > limit ? Math.min(count, Math.ceil(count / limit)) : 1;
}
