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

/** The tighter of two lower bounds (exclusive wins a tie). */
export function maxLower(a: KeyBound | undefined, b: KeyBound | undefined): KeyBound | undefined {
  if (!a) return b;
  if (!b) return a;
  const order = compareKeys(a.key, b.key);
  if (order !== 0) return order > 0 ? a : b;
  return a.inclusive ? b : a;
}

/** The tighter of two upper bounds (exclusive wins a tie). */
export function minUpper(a: KeyBound | undefined, b: KeyBound | undefined): KeyBound | undefined {
  if (!a) return b;
  if (!b) return a;
  const order = compareKeys(a.key, b.key);
  if (order !== 0) return order < 0 ? a : b;
  return a.inclusive ? b : a;
}

export function aboveLower(key: string, lower: KeyBound | undefined): boolean {
  if (!lower) return true;
  const order = compareKeys(key, lower.key);
  return order > 0 || (order === 0 && lower.inclusive);
}

export function belowUpper(key: string, upper: KeyBound | undefined): boolean {
  if (!upper) return true;
  const order = compareKeys(key, upper.key);
  return order < 0 || (order === 0 && upper.inclusive);
}

export function inRange(key: string, range: KeyRange): boolean {
  return aboveLower(key, range.lower) && belowUpper(key, range.upper);
}

/**
 * The bound itself, or undefined when it holds every string: `>= ''` excludes
 * nothing. An empty filter value (`prefix=`, `from=`, `key=`) plans to such a bound;
 * DynamoDB refuses an empty string in a key condition (dynalite takes it), so a bound
 * that bounds nothing must be dropped, not sent.
 */
export function effectiveLower(lower: KeyBound | undefined): KeyBound | undefined {
  return lower && lower.key === '' && lower.inclusive ? undefined : lower;
}

/** True when no string can lie in the range. */
export function isEmptyRange(range: KeyRange): boolean {
  if (!range.lower || !range.upper) return false;
  const order = compareKeys(range.lower.key, range.upper.key);
  return order > 0 || (order === 0 && !(range.lower.inclusive && range.upper.inclusive));
}

/**
 * The smallest string greater than every string that starts with `prefix`, or
 * undefined when there is none (the prefix is all U+10FFFF, or empty).
 */
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
