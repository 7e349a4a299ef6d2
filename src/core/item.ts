import { hasLoneSurrogate, utf8Length } from './collation';
import type { Collection } from './collection';
import { ShardlineError } from './errors';
import {
  canIndexValue,
  indexSortKey,
  indexSortKeyBytes,
  MAX_PARTITION_KEY_BYTES,
  MAX_SORT_KEY_BYTES,
  shardKey,
  type KeyValue,
} from './index-key';
import { normalize } from './normalize';

/** DynamoDB's item size limit (400 KB). */
export const MAX_ITEM_BYTES = 400 * 1024;
/** DynamoDB nests documents at most 32 levels deep. */
const MAX_DEPTH = 32;

export type JsonObject = { [name: string]: unknown };

/** An item ready to write: the client's attributes plus its shard and index keys. */
export interface PreparedItem {
  readonly shard: number;
  readonly shardKey: string;
  readonly indexKey: string;
  readonly primaryKey: JsonObject;
  /** What is written to the table. */
  readonly record: JsonObject;
  /** What the client wrote (returned in responses). */
  readonly item: JsonObject;
}

/**
 * Checks an item against the collection and DynamoDB's limits, assigns its shard
 * and builds its index keys. Throws a `ShardlineError` (a 4xx) for anything the
 * table would refuse, so a bad item is rejected before any write is attempted.
 */
export function prepareItem(
  collection: Collection,
  input: unknown,
  random: () => number,
  also: readonly Collection[] = [],
): PreparedItem {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ShardlineError('invalid_item', 'the item must be a JSON object');
  }
  const item = input as JsonObject;
  for (const reserved of indexAttributes(collection)) {
    if (reserved in item) {
      throw new ShardlineError('invalid_item', `attribute "${reserved}" is managed by shardline and cannot be written`);
    }
  }
  const keyValues = readPrimaryKey(collection, item);
  const value = item[collection.field];
  if (typeof value !== 'string') {
    throw new ShardlineError('invalid_item', `field "${collection.field}" must be a string`);
  }
  const normalized = normalize(value, collection.normalization);
  checkOrderedValue(collection.field, value, normalized);
  const indexBytes = indexSortKeyBytes(normalized, keyValues);
  if (indexBytes > MAX_SORT_KEY_BYTES) {
    throw new ShardlineError(
      'key_too_large',
      `field "${collection.field}" is too long to index: its index sort key would be ${indexBytes} bytes ` +
        `(normalized value plus primary key), DynamoDB allows ${MAX_SORT_KEY_BYTES}`,
    );
  }
  checkAttributes(item, 1);

  const shard = collection.strategy.shardForWrite(normalized, random);
  const partitionKey = shardKey(collection.prefix, shard);
  const indexKey = indexSortKey(normalized, keyValues);
  const record: JsonObject = {
    ...item,
    [collection.shardKeyAttribute]: partitionKey,
    [collection.indexKeyAttribute]: indexKey,
  };
  // During a migration the item is written under the other map too: same index key, its own shard.
  for (const view of also) {
    record[view.shardKeyAttribute] = shardKey(view.prefix, view.strategy.shardForWrite(normalized, random));
    record[view.indexKeyAttribute] = indexKey;
  }
  const size = itemSize(record);
  if (size > MAX_ITEM_BYTES) {
    throw new ShardlineError(
      'item_too_large',
      `the item is ${size} bytes with its index keys; DynamoDB allows ${MAX_ITEM_BYTES}`,
    );
  }
  const primaryKey = Object.fromEntries(collection.primaryKey.map((key, i) => [key.name, keyValues[i]]));
  return { shard, shardKey: partitionKey, indexKey, primaryKey, record, item };
}

/** Every attribute shardline manages on a collection's items: both indexes' shard and index keys. */
export function indexAttributes(collection: Collection): string[] {
  return collection.indexes.flatMap((index) => [index.shardKeyAttribute, index.indexKeyAttribute]);
}

/** Primary key values in key-schema order, checked for presence, type and size. */
export function readPrimaryKey(collection: Collection, source: JsonObject): KeyValue[] {
  return collection.primaryKey.map((key, position) => {
    const value = source[key.name];
    const limit = position === 0 ? MAX_PARTITION_KEY_BYTES : MAX_SORT_KEY_BYTES;
    if (key.type === 'S') {
      if (typeof value !== 'string' || value.length === 0) {
        throw new ShardlineError('invalid_item', `primary key attribute "${key.name}" must be a non-empty string`);
      }
      if (hasLoneSurrogate(value)) {
        throw new ShardlineError('invalid_item', `primary key attribute "${key.name}" holds an unpaired surrogate`);
      }
      const bytes = utf8Length(value);
      if (bytes > limit) {
        throw new ShardlineError(
          'key_too_large',
          `primary key attribute "${key.name}" is ${bytes} bytes; DynamoDB allows ${limit}`,
        );
      }
      return value;
    }
    if (typeof value !== 'number' || !isStorableNumber(value)) {
      throw new ShardlineError(
        'invalid_item',
        `primary key attribute "${key.name}" must be a number DynamoDB can store`,
      );
    }
    return value;
  });
}

function checkOrderedValue(field: string, value: string, normalized: string): void {
  if (hasLoneSurrogate(value)) {
    throw new ShardlineError('invalid_item', `field "${field}" holds an unpaired surrogate, which has no UTF-8 form`);
  }
  if (!canIndexValue(normalized)) {
    throw new ShardlineError(
      'invalid_item',
      `field "${field}" contains U+0000, which shardline reserves as its index separator`,
    );
  }
}

/** Rejects what DynamoDB would: ill-formed strings, unstorable numbers, empty names, deep nesting. */
function checkAttributes(value: unknown, depth: number): void {
  if (typeof value === 'string') {
    if (hasLoneSurrogate(value))
      throw new ShardlineError('invalid_item', 'a string attribute holds an unpaired surrogate');
  } else if (typeof value === 'number') {
    if (!isStorableNumber(value)) {
      throw new ShardlineError('invalid_item', `the number ${value} is outside what DynamoDB can store`);
    }
  } else if (typeof value === 'object' && value !== null) {
    if (depth > MAX_DEPTH) throw new ShardlineError('invalid_item', `the item nests deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const element of value) checkAttributes(element, depth + 1);
    } else {
      for (const [name, element] of Object.entries(value)) {
        if (name.length === 0) throw new ShardlineError('invalid_item', 'attribute names must not be empty');
        if (hasLoneSurrogate(name))
          throw new ShardlineError('invalid_item', 'an attribute name holds an unpaired surrogate');
        checkAttributes(element, depth + 1);
      }
    }
  }
}

/** DynamoDB numbers: magnitude 1E-130 to 9.9999999999999999999999999999999999999E+125, or zero. */
function isStorableNumber(value: number): boolean {
  const magnitude = Math.abs(value);
  return Number.isFinite(value) && (magnitude === 0 || (magnitude >= 1e-130 && magnitude < 1e126));
}

/** An upper estimate of DynamoDB's size of an item, following its published rules. */
export function itemSize(item: JsonObject): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += utf8Length(name) + valueSize(value);
  return size;
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return utf8Length(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/[-.]|e.*$/gi, '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (Array.isArray(value)) return value.reduce<number>((sum, element) => sum + valueSize(element) + 1, 3);
  let size = 3;
  for (const [name, element] of Object.entries(value as JsonObject)) size += utf8Length(name) + valueSize(element) + 1;
  return size;
}
