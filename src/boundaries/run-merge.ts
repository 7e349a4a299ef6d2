import { compareFrom, type ByteKeys } from './byte-sort';
import { partitionPoint } from '../core/partition-point';

/**
 * Files of keys are often nearly in order already (docs/boundaries.md, "How fast"): like Timsort,
 * find the ascending runs and, when there are few, merge them pairwise in close to linear time.
 */

/** Below one run per this many keys, merging the runs beats sorting from scratch. */
const KEYS_PER_RUN = 64;

/** The starts of the ascending runs of keys 0…count−1, then `count`; undefined once there are too many. */
export function ascendingRuns(keys: ByteKeys, count: number): number[] | undefined {
  const limit = Math.max(1, Math.floor(count / KEYS_PER_RUN));
  const starts = [0];
  for (let i = 1; i < count; i++) {
    if (compareFrom(keys, i - 1, i) > 0) {
      if (starts.length >= limit) return undefined;
      starts.push(i);
    }
  }
  starts.push(count);
  return starts;
}

/** The key ids 0…count−1 in byte order (ties in the order added), merged from their runs. */
export function mergeRuns(keys: ByteKeys, runStarts: readonly number[]): Int32Array {
  const count = runStarts[runStarts.length - 1]!;
  let source = new Int32Array(count);
  for (let i = 0; i < count; i++) source[i] = i;
  let target = new Int32Array(count);
  let bounds = [...runStarts];
  while (bounds.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r]!;
      const mid = bounds[r + 1]!;
      const hi = bounds[r + 2] ?? mid;
      if (hi === mid) target.set(source.subarray(lo, mid), lo);
      else mergePair(keys, source, target, lo, mid, hi);
      next.push(hi);
    }
    [source, target] = [target, source];
    bounds = next;
  }
  return source;
}

/** Which positions of `order` hold the same key as the one before (1). */
export function orderRepeats(keys: ByteKeys, order: Int32Array): Uint8Array {
  const repeats = new Uint8Array(order.length);
  for (let i = 1; i < order.length; i++) if (compareFrom(keys, order[i - 1]!, order[i]!) === 0) repeats[i] = 1;
  return repeats;
}

/**
 * Merges the sorted source[lo, mid) and source[mid, hi) into target[lo, hi). The left keys up
 * to the right's first, and the right keys from the left's last on, are already in place:
 * found by binary search and copied, not compared one by one.
 */
function mergePair(keys: ByteKeys, source: Int32Array, target: Int32Array, lo: number, mid: number, hi: number): void {
  // Left keys <= the right's first stay first (ties keep the left first).
  const leftEnd = firstAbove(keys, source, lo, mid, source[mid]!, false);
  // Right keys >= the left's last come after every left key.
  const rightEnd = firstAbove(keys, source, mid, hi, source[mid - 1]!, true);
  target.set(source.subarray(lo, leftEnd), lo);
  let out = leftEnd;
  let i = leftEnd;
  let j = mid;
  while (i < mid && j < rightEnd) {
    if (compareFrom(keys, source[j]!, source[i]!) < 0) target[out++] = source[j++]!;
    else target[out++] = source[i++]!;
  }
  // One side is used up: the rest of the other, then the right keys already in place.
  target.set(source.subarray(i, mid), out);
  target.set(source.subarray(j, hi), out + mid - i);
}

/** The first position in the sorted source[lo, hi) whose key is above `id`'s (`orEqual`: at or above), or `hi`. */
function firstAbove(keys: ByteKeys, source: Int32Array, lo: number, hi: number, id: number, orEqual: boolean): number {
  return partitionPoint(lo, hi, (i) => {
    const c = compareFrom(keys, source[i]!, id);
    return orEqual ? c < 0 : c <= 0;
  });
}
