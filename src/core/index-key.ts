import { utf8Length } from './collation';

/**
 * The index sort key (`gsi1sk`): normalized value + SEPARATOR + tiebreaker.
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

/** DynamoDB's limit on a sort key, in UTF-8 bytes. */
export const MAX_SORT_KEY_BYTES = 1024;
/** DynamoDB's limit on a partition key, in UTF-8 bytes. */
export const MAX_PARTITION_KEY_BYTES = 2048;

export type KeyValue = string | number;

export function indexSortKey(normalized: string, primaryKey: readonly KeyValue[]): string {
  return normalized + SEPARATOR + JSON.stringify(primaryKey);
}

/** The normalized value an index sort key was built from. */
export function valueOfIndexKey(indexKey: string): string {
  const end = indexKey.indexOf(SEPARATOR);
  return end < 0 ? indexKey : indexKey.slice(0, end);
}

/** Bytes an index sort key will take, so that an oversized value is refused up front. */
export function indexSortKeyBytes(normalized: string, primaryKey: readonly KeyValue[]): number {
  return utf8Length(normalized) + 1 + utf8Length(JSON.stringify(primaryKey));
}

/** The partition key of one shard: `<prefix>#<shard>`. */
export function shardKey(prefix: string, shard: number): string {
  return `${prefix}#${shard}`;
}
