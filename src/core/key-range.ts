import { compareKeys } from './collation';

/** One side of an interval of strings (index sort keys or normalized values). */
export interface KeyBound {
  readonly key: string;
  readonly inclusive: boolean;
}

/** An interval of index sort keys; a missing side is unbounded. */
export interface KeyRange {
  readonly lower?: KeyBound;
  readonly upper?: KeyBound;
}

/** The tighter of two bounds, `a` when `compare(a, b) > 0`; exclusive wins a tie. */
export function tighter<B extends { readonly inclusive: boolean }>(
  a: B | undefined,
  b: B | undefined,
  compare: (a: B, b: B) => number,
): B | undefined {
  if (!a) return b;
  if (!b) return a;
  const sign = compare(a, b);
  if (sign !== 0) return sign > 0 ? a : b;
  return a.inclusive ? b : a;
}

const byKey = (a: KeyBound, b: KeyBound): number => compareKeys(a.key, b.key);
const byKeyDown = (a: KeyBound, b: KeyBound): number => compareKeys(b.key, a.key);

export function maxLower(a: KeyBound | undefined, b: KeyBound | undefined): KeyBound | undefined {
  return tighter(a, b, byKey);
}

export function minUpper(a: KeyBound | undefined, b: KeyBound | undefined): KeyBound | undefined {
  return tighter(a, b, byKeyDown);
}

export function aboveLower(key: string, lower: KeyBound | undefined): boolean {
  return !lower || compareKeys(key, lower.key) >= (lower.inclusive ? 0 : 1);
}

export function belowUpper(key: string, upper: KeyBound | undefined): boolean {
  return !upper || compareKeys(key, upper.key) <= (upper.inclusive ? 0 : -1);
}

export function inRange(key: string, range: KeyRange): boolean {
  return aboveLower(key, range.lower) && belowUpper(key, range.upper);
}

/** The bound, or undefined for `>= ''` (every string), which DynamoDB refuses in a key condition. */
export function effectiveLower(lower: KeyBound | undefined): KeyBound | undefined {
  return lower && lower.key === '' && lower.inclusive ? undefined : lower;
}

export function isEmptyRange(range: KeyRange): boolean {
  if (!range.lower || !range.upper) return false;
  const sign = compareKeys(range.lower.key, range.upper.key);
  return sign > 0 || (sign === 0 && !(range.lower.inclusive && range.upper.inclusive));
}

/** The smallest string above every string starting with `prefix`; undefined if none (empty, or all U+10FFFF). */
export function prefixSuccessor(prefix: string): string | undefined {
  const codePoints = Array.from(prefix, (char) => char.codePointAt(0)!);
  while (codePoints.length > 0) {
    const last = codePoints.pop()!;
    if (last < 0x10ffff) {
      // Surrogate code points never occur in well-formed strings: step over them.
      codePoints.push(last + 1 === 0xd800 ? 0xe000 : last + 1);
      return String.fromCodePoint(...codePoints);
    }
  }
  return undefined;
}
