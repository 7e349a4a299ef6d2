import { utf8Length } from './collation';
import type { ExactNumber } from './exact-number';
import type { KeyBound } from './key-range';

/**
 * The one module that knows how keys are spelled (docs/architecture.md, "Index keys"): the shard key and the
 * index sort key, value + SEPARATOR + the primary key as JSON (which escapes U+0000). SEPARATOR sorts below
 * every character, so `value < value2` implies `key(value) < key(value2)`, one value's items are one run, and an
 * exact-value lookup is the prefix `value + SEPARATOR`. The primary key makes every entry unique: a cursor is one
 * exact position.
 */
export const SEPARATOR = '\u0000';
/** The next character up from SEPARATOR: `value + VALUE_END` is above every key of that value. */
const VALUE_END = '\u0001';
export const SHARD_SEPARATOR = '#';

export const MAX_SORT_KEY_BYTES = 1024;
export const MAX_PARTITION_KEY_BYTES = 2048;

/** A primary key attribute's value: a string, or a number (exact, as DynamoDB keys it). */
export type KeyValue = string | number | ExactNumber;

export function canIndexValue(normalized: string): boolean {
  return !normalized.includes(SEPARATOR);
}

/** `normalized` must pass `canIndexValue`. */
export function indexSortKey(normalized: string, primaryKey: readonly KeyValue[]): string {
  return normalized + SEPARATOR + primaryKeyJson(primaryKey);
}

/** Numbers as their exact digits (`[9007199254740993]`, never through a double: two keys stay two entries). */
function primaryKeyJson(primaryKey: readonly KeyValue[]): string {
  const parts = primaryKey.map((value) => (typeof value === 'string' ? JSON.stringify(value) : String(value)));
  return `[${parts.join(',')}]`;
}

/** Bytes an index sort key will take, so that an oversized value is refused up front. */
export function indexSortKeyBytes(normalized: string, primaryKey: readonly KeyValue[]): number {
  return utf8Length(normalized) + utf8Length(SEPARATOR) + utf8Length(primaryKeyJson(primaryKey));
}

/** The normalized value an index sort key was built from (the whole string when it has no separator). */
export function valueOfIndexKey(indexKey: string): string {
  const end = indexKey.indexOf(SEPARATOR);
  return end < 0 ? indexKey : indexKey.slice(0, end);
}

/** The bound holding exactly the keys of values above `value` (`inclusive`: and of `value`). */
export function valueLowerBound(value: string, inclusive: boolean): KeyBound {
  return { key: inclusive ? value : value + VALUE_END, inclusive: true };
}

/** The bound holding exactly the keys of values below `value` (`inclusive`: and of `value`). */
export function valueUpperBound(value: string, inclusive: boolean): KeyBound {
  return { key: inclusive ? value + VALUE_END : value, inclusive: false };
}

/** The smallest string above `key`: an exclusive lower bound as the inclusive one a key condition holds. */
export function nextKey(key: string): string {
  return key + SEPARATOR;
}

/** `<prefix>#<shard>` */
export function shardKey(prefix: string, shard: number): string {
  return shardKeyPrefix(prefix) + shard;
}

/** What every shard key of `prefix` starts with, for `begins_with` conditions. */
export function shardKeyPrefix(prefix: string): string {
  return prefix + SHARD_SEPARATOR;
}

/** Whether the record was written through a collection with that prefix (a prefix test, as `begins_with`). */
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
