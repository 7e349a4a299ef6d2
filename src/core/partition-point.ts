/** The first index in `[lo, hi)` where `before`, true on a prefix of the range only, is false (else `hi`). */
export function partitionPoint(lo: number, hi: number, before: (index: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
