/**
 * The one ordering of shardline: code point order, that of UTF-8 bytes and DynamoDB's string keys. JavaScript's
 * `<` and `sort()` compare UTF-16 units, which put U+E000–U+FFFF *after* astral characters (surrogates).
 */

import { partitionPoint } from './partition-point';

export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Only when both units are >= U+D800 can UTF-16 order disagree with code point order.
      if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y);
      return x - y;
    }
  }
  return a.length - b.length;
}

/** U+E000–U+FFFF move down to 0xD800–0xF7FF, surrogates up to 0xF800–0xFFFF: a bijection. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** A UTF-16 unit's place in code point order. */
export function unitRank(unit: number): number {
  return unit < 0xd800 ? unit : codePointRank(unit);
}

/** Index of the first element greater than `key` (Python's `bisect.bisect_right`). */
export function bisectRight(sorted: readonly string[], key: string): number {
  return partitionPoint(0, sorted.length, (i) => compareKeys(sorted[i]!, key) <= 0);
}

/** Index of the first element not less than `key` (Python's `bisect.bisect_left`). */
export function bisectLeft(sorted: readonly string[], key: string): number {
  return partitionPoint(0, sorted.length, (i) => compareKeys(sorted[i]!, key) < 0);
}

type SortedKeys = Record<'bisectRight' | 'bisectLeft', (key: string) => number>;

/**
 * `bisectRight`/`bisectLeft` over `sorted`, searched many times, with the engine's native `<` when no sorted key
 * holds a unit >= U+D800: then the unit a key is compared against never is one, and `<` is exact.
 */
export function sortedKeys(sorted: readonly string[]): SortedKeys {
  const keys = [...sorted];
  if (keys.some((key) => /[\uD800-\uFFFF]/.test(key))) {
    return { bisectRight: (key) => bisectRight(keys, key), bisectLeft: (key) => bisectLeft(keys, key) };
  }
  // Written out, not through partitionPoint: this is every range write's routing step, and a
  // closure called from the shared loop slows it measurably (docs/performance.md).
  return {
    bisectRight(key) {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (key < keys[mid]!) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    },
    bisectLeft(key) {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (keys[mid]! < key) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
  };
}

/** Sorted strings however a caller keeps them (an array, or bytes decoded on demand). */
export interface SortedView {
  readonly length: number;
  at(index: number): string | undefined;
}

export function bisectLeftIn(sorted: SortedView, key: string, from = 0): number {
  return partitionPoint(from, sorted.length, (i) => compareKeys(sorted.at(i)!, key) < 0);
}

/** Number of UTF-8 bytes of a well-formed string, without encoding it. */
export function utf8Length(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4; // a surrogate pair is one 4-byte code point
      i++;
    } else bytes += 3;
  }
  return bytes;
}
