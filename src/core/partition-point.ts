/**
 * The first index in `[lo, hi)` at which `before` is false (else `hi`); `before` holds for a prefix
 * of the range only (Rust's `partition_point`). `bisect_right` is "element ≤ key", `bisect_left` "<".
 */
export function partitionPoint(lo: number, hi: number, before: (index: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
