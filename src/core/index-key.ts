import { utf8Length } from './collation';
import { ExactNumber } from './exact-number';
import { parseExactJson } from './exact-json';
import type { KeyBound } from './key-range';

/**
 * The one module that knows how shardline's keys are spelled: the index sort key
 * (`gsi1sk`) and the shard partition key (`gsi1pk`). Everyone else builds, bounds and
 * takes them apart through these functions.
 *
 * The index sort key is encoded value + SEPARATOR + tiebreaker.
 *
 * SEPARATOR is U+0000, which sorts below every character a value may hold (values
 * containing it are rejected), so `value < value2` implies `key(value) < key(value2)`
 * for any tiebreakers, and all items of one value form one contiguous run ordered
 * by tiebreaker. The tiebreaker is the item's primary key as JSON — unique per item
 * and free of U+0000 (JSON escapes it) — so every index entry is unique, a cursor is
 * one exact position, ties page deterministically, and an exact-value lookup is
 * the prefix `value + SEPARATOR`.
 */
export const SEPARATOR = '\u0000';
/** The next character up from SEPARATOR: `encoded + VALUE_END` is above every key of that value. */
const VALUE_END = '\u0001';
/** Between a collection's shard-key prefix and the shard number. */
const SHARD_SEPARATOR = '#';

/** DynamoDB's limit on a sort key, in UTF-8 bytes. */
export const MAX_SORT_KEY_BYTES = 1024;
/** DynamoDB's limit on a partition key, in UTF-8 bytes. */
export const MAX_PARTITION_KEY_BYTES = 2048;

/** A primary key attribute's value: a string, or a number (exact, as DynamoDB keys it). */
export type KeyValue = string | number | ExactNumber;

/**
 * How an ordered value becomes the leading part of an index sort key. An encoding
 * must keep order (a before b exactly when encode(a) is before encode(b) by
 * `compareKeys`) and never produce SEPARATOR; every key and bound below is then
 * exact for it. Only normalized strings exist today, spelled as themselves; typed
 * and compound (tuple) values would get an encoding here and leave callers as they are.
 */
export interface ValueEncoding<V> {
  encode(value: V): string;
  decode(encoded: string): V;
}

/** Normalized strings, spelled as themselves (they must pass `canIndexValue`). */
export const stringValues: ValueEncoding<string> = { encode: (value) => value, decode: (encoded) => encoded };

/** Whether a normalized value can lead an index sort key: it must not hold SEPARATOR. */
export function canIndexValue(normalized: string): boolean {
  return !normalized.includes(SEPARATOR);
}

/** The index sort key of an item; `normalized` must pass `canIndexValue`. */
export function indexSortKey(normalized: string, primaryKey: readonly KeyValue[]): string {
  return stringValues.encode(normalized) + SEPARATOR + primaryKeyJson(primaryKey);
}

/**
 * The tiebreaker: the primary key as a JSON array, numbers as their exact digits
 * (`[9007199254740993]`, never through a double, so two numeric keys stay two entries).
 */
function primaryKeyJson(primaryKey: readonly KeyValue[]): string {
  const parts = primaryKey.map((value) => (typeof value === 'string' ? JSON.stringify(value) : String(value)));
  return `[${parts.join(',')}]`;
}

/** Bytes an index sort key will take, so that an oversized value is refused up front. */
export function indexSortKeyBytes(normalized: string, primaryKey: readonly KeyValue[]): number {
  return utf8Length(stringValues.encode(normalized)) + utf8Length(SEPARATOR) + utf8Length(primaryKeyJson(primaryKey));
}

/** The normalized value an index sort key was built from (the whole string when it has no separator). */
export function valueOfIndexKey(indexKey: string): string {
  const end = indexKey.indexOf(SEPARATOR);
  return stringValues.decode(end < 0 ? indexKey : indexKey.slice(0, end));
}

/** An index sort key taken apart; throws an Error when `indexKey` is not one `indexSortKey` builds. */
export function decodeIndexKey(indexKey: string): { value: string; primaryKey: KeyValue[] } {
  const end = indexKey.indexOf(SEPARATOR);
  const primaryKey: unknown = end < 0 ? undefined : parseJson(indexKey.slice(end + 1));
  if (!Array.isArray(primaryKey) || !primaryKey.every((v) => typeof v === 'string' || v instanceof ExactNumber)) {
    throw new Error(`not an index sort key: ${JSON.stringify(indexKey)}`);
  }
  return { value: stringValues.decode(indexKey.slice(0, end)), primaryKey };
}

/**
 * The index sort key bound holding exactly the keys of values above `value`
 * (`inclusive`: of `value` and above). Inclusive starts at the bare value, below its
 * first key; exclusive starts past its last key, at value + U+0001.
 */
export function valueLowerBound(value: string, inclusive: boolean): KeyBound {
  const encoded = stringValues.encode(value);
  return inclusive ? { key: encoded, inclusive: true } : { key: encoded + VALUE_END, inclusive: true };
}

/**
 * The index sort key bound holding exactly the keys of values below `value`
 * (`inclusive`: of `value` and below). Every key of `value` lies below value + U+0001
 * and above the bare value.
 */
export function valueUpperBound(value: string, inclusive: boolean): KeyBound {
  const encoded = stringValues.encode(value);
  return { key: inclusive ? encoded + VALUE_END : encoded, inclusive: false };
}

/**
 * The smallest string above `key` in code point order (any string, index key or
 * not): nothing sorts between `key` and `key + U+0000`. Turns an exclusive lower
 * bound into the inclusive one a key condition can hold.
 */
export function nextKey(key: string): string {
  return key + SEPARATOR;
}

/** The partition key of one shard: `<prefix>#<shard>`. */
export function shardKey(prefix: string, shard: number): string {
  return shardKeyPrefix(prefix) + shard;
}

/** What every shard key of `prefix` starts with (`<prefix>#`), for `begins_with` conditions. */
export function shardKeyPrefix(prefix: string): string {
  return prefix + SHARD_SEPARATOR;
}

/**
 * Whether `key` is a shard key of `prefix` — the record was written through a
 * collection with that prefix. A prefix test, like the `begins_with` condition the
 * store writes with `shardKeyPrefix`, so a prefix that is another's plus `#…` would
 * match both.
 */
export function isShardKeyOf(key: unknown, prefix: string): boolean {
  return typeof key === 'string' && key.startsWith(shardKeyPrefix(prefix));
}

/** A shard key taken apart at its last `#`, or undefined when it is not `<prefix>#<shard>`. */
export function parseShardKey(key: string): { prefix: string; shard: number } | undefined {
  const at = key.lastIndexOf(SHARD_SEPARATOR);
  const digits = key.slice(at + 1);
  if (at < 1 || !/^(?:0|[1-9][0-9]*)$/.test(digits)) return undefined;
  return { prefix: key.slice(0, at), shard: Number(digits) };
}

function parseJson(text: string): unknown {
  try {
    return parseExactJson(text);
  } catch {
    return undefined;
  }
}
