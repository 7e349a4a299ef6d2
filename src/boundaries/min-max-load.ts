import { EPS, piecesOf, type LoadModel } from './load-model';
import { partitionPoint } from '../core/partition-point';

/**
 * Greedy packing under a max load, the fewest shards for it: fill each shard as far as it goes, give a
 * value heavier than `max` a run of its own shards (`bisect_right` routes everything under a repeated
 * boundary to the shard before). Returns the shards used (counted up to just past `limit`) and the
 * largest load; light values are jumped by binary search.
 */
function packGreedy(model: LoadModel, max: number, limit = Infinity): { shards: number; max: number } {
  const { prefix, big } = model;
  const counts = model.keys.counts;
  const n = counts.length;
  const tol = max * (1 + EPS);
  let shards = 1;
  let load = 0;
  let worst = 0;
  let nextBig = 0;
  for (let i = 0; i < n; ) {
    const count = counts[i]!;
    const pieces = piecesOf(count, max);
    if (pieces > 1) {
      // '' first shares shard 0; any other heavy value starts a new shard.
      if (!(i === 0 && model.startsEmpty)) shards++;
      shards += pieces - 1;
      worst = Math.max(worst, load);
      load = count / pieces;
      i++;
    } else if (load + count > tol) {
      worst = Math.max(worst, load);
      shards++;
      load = 0;
    } else {
      while (nextBig < big.length && big[nextBig]! <= i) nextBig++;
      const stop = nextBig < big.length ? big[nextBig]! : n;
      const end = lastAtMost(prefix, prefix[i]! - load + tol, i + 1, stop);
      load += prefix[end]! - prefix[i]!;
      i = end;
    }
    if (shards > limit) break;
  }
  return { shards, max: Math.max(worst, load) };
}

/** Largest j in [lo, hi] with sorted[j] <= x (sorted[lo] <= x is given). */
function lastAtMost(sorted: Float64Array, x: number, lo: number, hi: number): number {
  return partitionPoint(lo + 1, hi + 1, (j) => sorted[j]! <= x) - 1;
}

/**
 * The smallest possible largest-shard load for `shards` shards (never below the mean, nor one item):
 * bisection over the greedy packing, then the load it attains, so later steps compare against it exactly.
 */
export function minMaxLoad(model: LoadModel, shards: number): number {
  const total = model.keys.total;
  let lo = Math.max(model.mean, Math.min(1, total));
  let hi = Math.max(total, lo);
  if (packGreedy(model, lo, shards).shards <= shards) return packGreedy(model, lo).max;
  for (let step = 0; step < 200 && hi - lo > hi * EPS * 4; step++) {
    const mid = (lo + hi) / 2;
    if (packGreedy(model, mid, shards).shards <= shards) hi = mid;
    else lo = mid;
  }
  return packGreedy(model, hi).max;
}
