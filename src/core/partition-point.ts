/**
 * The first index in `[lo, hi)` at which `before` is false, or `hi` when there is none.
 * `before` must hold for a prefix of the range and for nothing after it (Rust's
 * `partition_point`). Every bisection in shardline is this one loop with its own test:
 * `bisect_right` is "element ≤ key", `bisect_left` is "element < key".
 */
export function partitionPoint(lo: number, hi: number, before: (index: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
