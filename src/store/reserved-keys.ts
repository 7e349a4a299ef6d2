import { NumberValue } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import type { JsonObject } from '../core/item';
import { hashShard } from '../core/strategies/hash';

/**
 * Partition-key prefix of shardline's own items (shard-map pointers and versions, follower
 * checkpoints) in a table whose partition key is a string. They carry no index
 * attributes, so no index holds them, and scans for members skip them.
 */
export const RESERVED_KEY_PREFIX = '__shardline#';

/**
 * A table whose partition key is a number keeps them at 15-digit numbers in
 * [-9.99999999999999e125, -9.999e125]: next to the lowest number DynamoDB stores
 * (-9.99…e125, 38 digits), where no app's key lives. Fifteen digits survive a JS
 * double exactly, so a key read back as a number (UnprocessedKeys) is the same key again.
 */
const RESERVED_NUMBER_LIMIT = -9.999e125;

/**
 * The partition key of one of shardline's items in the collection's table: `owner` names
 * it (`map#albums#pointer`, `follow#…`). A number takes 11 digits of `owner`'s SHA-256;
 * the items also store their owner (map items: `mapOf`, checked on every read).
 */
export function reservedPartition(collection: CollectionSpec, owner: string): string | NumberValue {
  if (collection.primaryKey[0]!.type === 'S') return `${RESERVED_KEY_PREFIX}${owner}`;
  const digits = String(hashShard(owner, 100_000_000_000)).padStart(11, '0');
  return new NumberValue(`-9.999${digits}E+125`);
}

/**
 * Keys a batch read left unprocessed, ready to be sent again: the document client read a
 * reserved number back as a JS number, which it refuses to write (past 2^53); its
 * 15 digits print back exactly.
 */
export function resendable<T extends Record<string, unknown>>(keys: readonly T[]): T[] {
  return keys.map((key) => {
    const copy: Record<string, unknown> = { ...key };
    for (const [name, value] of Object.entries(copy)) {
      if (typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value)) {
        copy[name] = new NumberValue(String(value));
      }
    }
    return copy as T;
  });
}

/** Whether `item` is one of shardline's own items in the collection's table (never a member of anything). */
export function isReservedItem(collection: CollectionSpec, item: JsonObject): boolean {
  return reservedOwner(collection, item) !== undefined;
}

/**
 * What a reserved item's partition key says of it: its owner's name after the prefix, or
 * '' for a numeric key (whose owner only the item's own attributes name); undefined for an app's item.
 */
export function reservedOwner(collection: CollectionSpec, item: JsonObject): string | undefined {
  const partition: unknown = item[collection.primaryKey[0]!.name];
  if (typeof partition === 'string') {
    return partition.startsWith(RESERVED_KEY_PREFIX) ? partition.slice(RESERVED_KEY_PREFIX.length) : undefined;
  }
  const number = numberOf(partition);
  return number !== undefined && number <= RESERVED_NUMBER_LIMIT ? '' : undefined;
}

/** A number as shardline's clients hand it over: a JS number, or exact text (ExactNumber, NumberValue). */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value === null || typeof value !== 'object') return undefined;
  const text = (value as { text?: unknown; value?: unknown }).text ?? (value as { value?: unknown }).value;
  return typeof text === 'string' ? Number(text) : undefined;
}
