import type { Collection } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { isShardKeyOf, shardKeyPrefix } from '../core/index-key';
import { readPrimaryKey, type JsonObject } from '../core/item';
import type { CallContext } from '../store/retry';
import type { Store } from '../store/store';

/**
 * The primary key named by query parameters, typed by the table's key schema
 * (`?pk=…&sk=…`); a missing or malformed attribute is a 400.
 */
export function primaryKeyFromParams(collection: Collection, params: Record<string, string | undefined>): JsonObject {
  const typed: JsonObject = {};
  for (const { name, type } of collection.primaryKey) {
    const raw = params[name];
    if (raw === undefined)
      throw new ShardlineError('invalid_request', `query parameter "${name}" (primary key) is required`);
    typed[name] = type === 'N' && raw.trim() !== '' ? Number(raw) : raw;
  }
  const values = readPrimaryKey(collection, typed);
  return Object.fromEntries(collection.primaryKey.map(({ name }, i) => [name, values[i]]));
}

/** Whether a stored record was written through this collection (it carries its shard key in either index). */
export function belongsTo(collection: Collection, record: JsonObject): boolean {
  return collection.indexes.some(({ shardKeyAttribute }) => isShardKeyOf(record[shardKeyAttribute], collection.prefix));
}

export async function getItem(
  store: Store,
  collection: Collection,
  key: JsonObject,
  context: CallContext,
): Promise<JsonObject> {
  const record = await store.getItem(collection.table, key, context);
  if (!record || !belongsTo(collection, record)) throw notFound(collection);
  return record;
}

export async function deleteItem(
  store: Store,
  collection: Collection,
  key: JsonObject,
  context: CallContext,
): Promise<void> {
  const deleted = await store.deleteItem(collection.table, key, context, {
    attributes: collection.indexes.map(({ shardKeyAttribute }) => shardKeyAttribute),
    prefix: shardKeyPrefix(collection.prefix),
  });
  if (!deleted) throw notFound(collection);
}

function notFound(collection: Collection): ShardlineError {
  return new ShardlineError('item_not_found', `no item with that primary key in collection "${collection.name}"`);
}
