import { etagAttributeOf, type CollectionSpec } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { ExactNumber } from '../core/exact-number';
import { readPrimaryKey, type JsonObject } from '../core/item';
import type { CallContext } from '../store/retry';
import type { Store } from '../store/store';
import { belongsTo, notFound, type Preconditions, writeGuarded } from './guards';

/** The primary key named by query parameters (`?pk=…&sk=…`, a number keeps all its digits), or a 400. */
export function primaryKeyFromParams(
  collection: CollectionSpec,
  params: Record<string, string | undefined>,
): JsonObject {
  const typed: JsonObject = {};
  for (const { name, type } of collection.primaryKey) {
    const raw = params[name];
    if (raw === undefined)
      throw new ShardlineError('invalid_request', `query parameter "${name}" (primary key) is required`);
    typed[name] = type === 'N' ? new ExactNumber(raw.trim()) : raw;
  }
  return primaryKeyFrom(collection, typed);
}

/** The primary key attributes of `source` (an item or a key object), checked and typed. */
export function primaryKeyFrom(collection: CollectionSpec, source: JsonObject): JsonObject {
  const values = readPrimaryKey(collection, source);
  return Object.fromEntries(collection.primaryKey.map(({ name }, i) => [name, values[i]]));
}

/** What a projection (`fields=`) reads: the fields, the shard keys (is it this collection's?) and the ETag. */
export function projectionFor(collection: CollectionSpec, fields: readonly string[] | undefined): string[] | undefined {
  if (!fields) return undefined;
  const needed = collection.indexes.map(({ shardKeyAttribute }) => shardKeyAttribute);
  return [...new Set([...fields, ...needed, etagAttributeOf(collection)])];
}

/** The record of one item of the collection (404 when absent or another collection's). */
export async function getItem(
  store: Store,
  collection: CollectionSpec,
  key: JsonObject,
  context: CallContext,
  fields?: readonly string[],
): Promise<JsonObject> {
  const attributes = projectionFor(collection, fields);
  const record = await store.getItem(collection.table, key, context, attributes ? { attributes } : {});
  if (!record || !belongsTo(collection, record)) throw notFound(collection);
  return record;
}

/** Deletes one item of the collection under the request's preconditions (404, 409, 412 when refused). */
export async function deleteItem(
  store: Store,
  collection: CollectionSpec,
  key: JsonObject,
  context: CallContext,
  preconditions: Preconditions = {},
): Promise<void> {
  await writeGuarded(collection, 'must', preconditions, (guard) =>
    store.deleteItem(collection.table, key, context, guard),
  );
}
