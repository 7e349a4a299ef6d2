/**
 * Shortest separators between neighbouring keys: LevelDB's `FindShortestSeparator` on code points.
 * A boundary `s` between sorted keys `a < b` must satisfy `a < s <= b` (bisect_right sends `b` to
 * the new shard). If `a` and `b` share `L` code points, no string of `L` or fewer does (it would be a
 * prefix of `a`, or differ inside the shared prefix), while the first `L + 1` of `b` always do.
 */

/** Code units of `a` and `b`'s common prefix, never ending inside a surrogate pair. */
function commonPrefixUnits(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Equal high surrogates followed by different low ones are different code points.
  if (i > 0 && i < n && isHighSurrogate(a.charCodeAt(i - 1))) i--;
  return i;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** The shortest `s` with `a < s <= b` in code point order. Requires `a < b` (the caller's sort ensures it). */
export function shortestSeparator(a: string, b: string): string {
  const shared = commonPrefixUnits(a, b);
  const width = isHighSurrogate(b.charCodeAt(shared)) ? 2 : 1;
  return b.slice(0, shared + width);
}

/** Length in code points of `shortestSeparator(a, b)`, without building it. */
export function shortestSeparatorLength(a: string, b: string): number {
  return codePointLength(a, commonPrefixUnits(a, b)) + 1;
}

/** Number of code points in the first `units` code units of `s` (all of it by default). */
export function codePointLength(s: string, units = s.length): number {
  let points = units;
  for (let i = 0; i < units; i++) {
    const unit = s.charCodeAt(i);
    // Count a pair once: skip its low half.
    if (isHighSurrogate(unit) && i + 1 < units) {
      points--;
      i++;
    }
  }
  return points;
}
