import { NumberValue } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import type { JsonObject } from '../core/item';
import { hashShard } from '../core/strategies/hash';

/**
 * Partition-key prefix of shardline's own items (shard maps, checkpoints, …) in a table whose partition
 * key is a string. They carry no index attributes, so no index holds them; scans for members skip them.
 */
export const RESERVED_KEY_PREFIX = '__shardline#';

/**
 * A numeric partition key keeps them at 15-digit numbers in [-9.99999999999999e125, -9.999e125],
 * next to the lowest number DynamoDB stores, where no app's key lives. Fifteen digits survive a JS
 * double exactly, so a key that reaches code as a number (a test, a tool) is still the same key.
 */
const RESERVED_NUMBER_LIMIT = -9.999e125;
/** Below DynamoDB's lowest number (-9.99…9E+125, 38 digits, -1e126 as a double): no key, reserved or not. */
const LOWEST_NUMBER = -1e126;

/** A collection's reserved key space in words (for a 403 `reserved_key`), and as facts for the client. */
export function reservedKeySpace(collection: CollectionSpec): { words: string; details: Record<string, unknown> } {
  const { name, type } = collection.primaryKey[0]!;
  if (type === 'S') {
    return {
      words: `a partition key "${name}" starting with "${RESERVED_KEY_PREFIX}"`,
      details: { attribute: name, prefix: RESERVED_KEY_PREFIX },
    };
  }
  const range = { from: '-9.99999999999999e125', to: String(RESERVED_NUMBER_LIMIT) };
  return { words: `a partition key "${name}" from ${range.from} to ${range.to}`, details: { attribute: name, range } };
}

/**
 * The partition key of the shardline item `owner` names (`map#albums#pointer`, `follow#…`). A number
 * takes 11 digits of `owner`'s SHA-256, so the items store their owner too (`mapOf`, checked on read).
 */
export function reservedPartition(collection: CollectionSpec, owner: string): string | NumberValue {
  if (collection.primaryKey[0]!.type === 'S') return `${RESERVED_KEY_PREFIX}${owner}`;
  const digits = String(hashShard(owner, 100_000_000_000)).padStart(11, '0');
  return new NumberValue(`-9.999${digits}E+125`);
}

/**
 * The whole key of the shardline item `owner` names. A sort key, when the table has one, holds `sort`'s text,
 * or its number when the sort key is numeric.
 */
export function reservedKey(
  collection: CollectionSpec,
  owner: string,
  sort: readonly [text: string, number: number],
): JsonObject {
  const [partition, sortKey] = collection.primaryKey;
  const sortValue = sortKey && { [sortKey.name]: sortKey.type === 'N' ? sort[1] : sort[0] };
  return { [partition!.name]: reservedPartition(collection, owner), ...sortValue };
}

/** Whether `item` is one of shardline's own (never a member of anything). */
export function isReservedItem(collection: CollectionSpec, item: JsonObject): boolean {
  return reservedOwner(collection, item) !== undefined;
}

/** A reserved item's owner after the prefix, '' for a numeric key (only its attributes name it); else undefined. */
export function reservedOwner(collection: CollectionSpec, item: JsonObject): string | undefined {
  const partition: unknown = item[collection.primaryKey[0]!.name];
  if (typeof partition === 'string') {
    return partition.startsWith(RESERVED_KEY_PREFIX) ? partition.slice(RESERVED_KEY_PREFIX.length) : undefined;
  }
  const number = numberOf(partition);
  return number !== undefined && number >= LOWEST_NUMBER && number <= RESERVED_NUMBER_LIMIT ? '' : undefined;
}

/** A number as shardline's clients hand it over: a JS number, or exact text (ExactNumber, NumberValue). */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value === null || typeof value !== 'object') return undefined;
  const text = (value as { text?: unknown; value?: unknown }).text ?? (value as { value?: unknown }).value;
  return typeof text === 'string' ? Number(text) : undefined;
}
