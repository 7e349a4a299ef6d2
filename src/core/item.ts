import { utf8Length } from './collation';
import { type CollectionSpec, etagAttributeOf, type RoutedCollection, TTL_ATTRIBUTE } from './collection';
import { ShardlineError } from './errors';
import { itemEtag } from './etag';
import { canonicalKeyNumber, dynamoNumberProblem, ExactNumber, parseDecimal } from './exact-number';
import {
  indexSortKey,
  indexSortKeyBytes,
  MAX_PARTITION_KEY_BYTES,
  MAX_SORT_KEY_BYTES,
  shardKey,
  type KeyValue,
} from './index-key';
import { groupOfItem, groupView } from './group-view';
import { orderedValueOf, orderLabel } from './order';
import { isPlainObject, ValueSet } from './values';

export const MAX_ITEM_BYTES = 400 * 1024;
const MAX_DEPTH = 32;
/** DynamoDB's limit on an attribute name (UTF-8 bytes): past it DynamoDB refuses from inside the write. */
const MAX_ATTRIBUTE_NAME_BYTES = 65_535;

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
  readonly etag: string;
  /** A grouped collection's: the item's group (its shard keys' middle part). */
  readonly group?: string;
}

/** Checks an item, assigns its shard and builds its index keys; a 4xx for anything the table would refuse. */
export function prepareItem(
  collection: RoutedCollection,
  input: unknown,
  random: () => number,
  also: readonly RoutedCollection[] = [],
): PreparedItem {
  // A number is an object here too (ExactNumber): not an item.
  if (!isPlainObject(input)) {
    throw new ShardlineError('invalid_item', 'the item must be a JSON object');
  }
  const item = input as JsonObject;
  if (collection.group) {
    // Each group is a collection of its own shard keys: the item is prepared as its group's.
    const group = groupOfItem(collection, item);
    const inGroup = (view: RoutedCollection) => groupView(view, group);
    return { ...prepareItem(inGroup(collection), item, random, also.map(inGroup)), group };
  }
  const reserved = managedAttributes(collection).find((name) => Object.hasOwn(item, name));
  if (reserved !== undefined) {
    throw new ShardlineError('invalid_item', `attribute "${reserved}" is managed by shardline and cannot be written`);
  }
  const keyValues = readPrimaryKey(collection, item);
  const normalized = orderedValueOf(collection, item);
  const indexBytes = indexSortKeyBytes(normalized, keyValues);
  if (indexBytes > MAX_SORT_KEY_BYTES) {
    // The index sort key carries the primary key too: one that alone fills it is the key's fault, not the field's.
    const keyBytes = indexSortKeyBytes('', keyValues);
    throw new ShardlineError(
      'key_too_large',
      keyBytes >= MAX_SORT_KEY_BYTES
        ? `the primary key is too long to index: the index sort key carries it (${keyBytes} bytes with its ` +
            `separator, before any ordered value), DynamoDB allows ${MAX_SORT_KEY_BYTES}`
        : `${orderLabel(collection)} too long to index: its index sort key would be ${indexBytes} bytes ` +
            `(ordered value plus primary key, which takes ${keyBytes}), DynamoDB allows ${MAX_SORT_KEY_BYTES}`,
    );
  }
  checkAttributes(item);

  const shard = collection.map.strategy.shardForWrite(normalized, random);
  const partitionKey = shardKey(collection.prefix, shard);
  const indexKey = indexSortKey(normalized, keyValues);
  const primaryKey = Object.fromEntries(collection.primaryKey.map((key, i) => [key.name, keyValues[i]]));
  // The key as DynamoDB will hold it (`1.50` is the number 1.5), so the ETag is the stored item's.
  const stored = { ...item, ...primaryKey };
  const etag = itemEtag(stored);
  const record: JsonObject = {
    ...stored,
    [collection.map.index.shardKeyAttribute]: partitionKey,
    [collection.map.index.indexKeyAttribute]: indexKey,
    [etagAttributeOf(collection)]: etag,
  };
  // During a migration the item is written under the other map too: same index key, its own shard.
  for (const { prefix, map } of also) {
    record[map.index.shardKeyAttribute] = shardKey(prefix, map.strategy.shardForWrite(normalized, random));
    record[map.index.indexKeyAttribute] = indexKey;
  }
  const size = itemSize(record);
  if (size > MAX_ITEM_BYTES) {
    throw new ShardlineError(
      'item_too_large',
      `the item is ${size} bytes with its index keys; DynamoDB allows ${MAX_ITEM_BYTES}`,
    );
  }
  return { shard, shardKey: partitionKey, indexKey, primaryKey, record, item: stored, etag };
}

/** Rejects names and values DynamoDB would refuse (a 400 `invalid_item`), at any depth. */
export function checkAttributes(item: JsonObject): void {
  for (const [name, element] of Object.entries(item)) {
    if (name.length === 0) throw new ShardlineError('invalid_item', 'attribute names must not be empty');
    if (!name.isWellFormed()) throw new ShardlineError('invalid_item', 'an attribute name holds an unpaired surrogate');
    const bytes = utf8Length(name);
    if (bytes > MAX_ATTRIBUTE_NAME_BYTES) {
      throw new ShardlineError(
        'invalid_item',
        `attribute name "${name.slice(0, 20)}…" is ${bytes} bytes; DynamoDB allows ${MAX_ATTRIBUTE_NAME_BYTES}`,
        { limit: MAX_ATTRIBUTE_NAME_BYTES },
      );
    }
    checkAttribute(element, name, 1);
  }
}

/** Both indexes' shard and index key attributes, the ETag and the TTL attribute. */
export function managedAttributes(collection: CollectionSpec): string[] {
  const indexes = collection.indexes.flatMap((index) => [index.shardKeyAttribute, index.indexKeyAttribute]);
  return [...indexes, etagAttributeOf(collection), TTL_ATTRIBUTE];
}

/** Primary key values in key-schema order, checked for presence, type and size. */
export function readPrimaryKey(collection: CollectionSpec, source: JsonObject): KeyValue[] {
  return collection.primaryKey.map((key, position) => {
    const value = source[key.name];
    const limit = position === 0 ? MAX_PARTITION_KEY_BYTES : MAX_SORT_KEY_BYTES;
    const invalid = (problem: string) =>
      new ShardlineError('invalid_item', `primary key attribute "${key.name}" ${problem}`);
    if (key.type === 'S') {
      if (typeof value !== 'string' || value.length === 0) throw invalid('must be a non-empty string');
      if (!value.isWellFormed()) throw invalid('holds an unpaired surrogate');
      const bytes = utf8Length(value);
      if (bytes > limit) {
        throw new ShardlineError(
          'key_too_large',
          `primary key attribute "${key.name}" is ${bytes} bytes; DynamoDB allows ${limit}`,
        );
      }
      return value;
    }
    // `1.50` and `1.5` are one item, spelled one way in the index key.
    const number = canonicalKeyNumber(value);
    if ('problem' in number) throw invalid(number.problem);
    return new ExactNumber(number.text);
  });
}

/** Rejects what DynamoDB would: ill-formed strings, unstorable numbers, empty names, deep nesting. */
function checkAttribute(value: unknown, where: string, depth: number): void {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) throw invalidAttribute(where, 'holds an unpaired surrogate');
  } else if (value instanceof ExactNumber || typeof value === 'number') {
    const decimal = parseDecimal(String(value));
    const problem = decimal ? dynamoNumberProblem(decimal) : 'is not a finite number';
    if (problem) throw invalidAttribute(where, `is the number ${String(value).slice(0, 60)}, which ${problem}`);
  } else if (value instanceof ValueSet) {
    for (const [i, element] of value.elements.entries()) checkAttribute(element, `${where}[${i}]`, depth + 1);
  } else if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array)) {
    if (depth > MAX_DEPTH) throw new ShardlineError('invalid_item', `the item nests deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const [i, element] of value.entries()) checkAttribute(element, `${where}[${i}]`, depth + 1);
    } else {
      for (const [name, element] of Object.entries(value)) {
        if (name.length === 0) throw invalidAttribute(where, 'holds a map with an empty attribute name');
        if (!name.isWellFormed()) throw invalidAttribute(where, 'holds a name with an unpaired surrogate');
        checkAttribute(element, `${where}.${name}`, depth + 1);
      }
    }
  }
}

function invalidAttribute(where: string, problem: string): ShardlineError {
  return new ShardlineError('invalid_item', `attribute "${where}" ${problem}`, { attribute: where });
}

/** An upper estimate of DynamoDB's size of an item, by its published rules. */
export function itemSize(item: JsonObject): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += utf8Length(name) + valueSize(value);
  return size;
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return utf8Length(value);
  if (typeof value === 'number' || value instanceof ExactNumber) {
    return Math.ceil(String(value).replace(/[-.]|e.*$/gi, '').length / 2) + 1;
  }
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof ValueSet) return value.elements.reduce<number>((sum, element) => sum + valueSize(element), 0);
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (Array.isArray(value)) return value.reduce<number>((sum, element) => sum + valueSize(element) + 1, 3);
  let size = 3;
  for (const [name, element] of Object.entries(value as JsonObject)) size += utf8Length(name) + valueSize(element) + 1;
  return size;
}
