import type { CollectionSpec } from '../../core/collection';
import { ShardlineError } from '../../core/errors';
import type { JsonObject } from '../../core/item';
import { PARTS_ATTRIBUTE, type PartRef, partOfAttribute, partRefs } from '../../core/parts';
import type { CallContext } from '../../store/retry';
import type { Store } from '../../store/store';
import { belongsTo, guardAsRead, notFound, type Preconditions, readOwned, refusedAfterRead } from '../guards';
import { projectionFor } from '../read-item';
import { assembleParts, entityKey, merged, readParts, removeParts } from './part-chunks';

/** Reads of a root and its parts: a part version gone means the root moved on; the last attempt reads strongly. */
const READ_ATTEMPTS = 3;

/** The parts `fields` needs, and what of the root to read. */
function plan(collection: CollectionSpec, fields: readonly string[]) {
  const owner = partOfAttribute(collection.parts ?? {});
  const wanted = new Set(fields.flatMap((name) => owner.get(name) ?? []));
  const rootFields = fields.filter((name) => !owner.has(name));
  // With part references, the key too: a listing finds each root's parts by it (the answer shows `fields` only).
  const extra = wanted.size > 0 ? [PARTS_ATTRIBUTE, ...collection.primaryKey.map(({ name }) => name)] : [];
  const attributes = [...(projectionFor(collection, rootFields) ?? []), ...extra];
  return { wanted, attributes };
}

function refsFor(root: JsonObject, wanted: ReadonlySet<string>): Map<string, PartRef> {
  return new Map([...partRefs(root)].filter(([part]) => wanted.has(part)));
}

/**
 * One entity: its root, then the chunks of the parts it names (only those `fields` needs; none when
 * `fields` names root attributes only) in one round of batch reads. A reader sees one version: the
 * parts are those the root it read names, and a version removed since sends it back to the root.
 */
export async function getEntity(
  store: Store,
  collection: CollectionSpec,
  key: JsonObject,
  context: CallContext,
  fields?: readonly string[],
): Promise<JsonObject> {
  if (!fields) return wholeEntity(store, collection, key, context);
  const { wanted, attributes } = plan(collection, fields);
  return readAgreeing(async (consistent) => {
    const root = await store.getItem(collection.table, key, context, { attributes, ...(consistent && { consistent }) });
    if (!root || !belongsTo(collection, root)) throw notFound(collection);
    const refs = refsFor(root, wanted);
    if (refs.size === 0) return root;
    const parts = await readParts(store, collection, entityKey(collection, key), refs, context, consistent);
    return parts && merged(root, parts);
  });
}

/**
 * The whole entity by one Query of its partition, from the root's sort key to the last of its chunks
 * (`<root sk>\u0000…` sorts between the root and `<root sk>\u0001`): the root and the chunks of every
 * version present, of which the root's are kept.
 */
function wholeEntity(store: Store, collection: CollectionSpec, key: JsonObject, context: CallContext) {
  const entity = entityKey(collection, key);
  const [sortName, rootSortKey] = entity.sort;
  return readAgreeing(async (consistent) => {
    const sort = [sortName, rootSortKey, `${rootSortKey}\u0001`] as const;
    const range = { table: collection.table, partition: entity.partition, sort, ...(consistent && { consistent }) };
    const items = await store.queryKeyRange(range, context);
    const root = items.find((item) => item[sortName] === rootSortKey);
    if (!root || !belongsTo(collection, root)) throw notFound(collection);
    const parts = assembleParts(entity, partRefs(root), items);
    return parts && merged(root, parts);
  });
}

/** `read` until a root and the parts it names agree (undefined: a part version went); the last reads strongly. */
async function readAgreeing(read: (consistent: boolean) => Promise<JsonObject | undefined>): Promise<JsonObject> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    const entity = await read(attempt === READ_ATTEMPTS - 1);
    if (entity) return entity;
  }
  throw new ShardlineError('conflict', 'the entity kept changing while it was read; try again');
}

/** Deletes the root under the request's preconditions (and the root as read), then its parts. */
export async function deleteEntity(
  store: Store,
  collection: CollectionSpec,
  key: JsonObject,
  context: CallContext,
  preconditions: Preconditions = {},
): Promise<void> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    const current = await readOwned(store, collection, key, context, preconditions);
    const outcome = await store.deleteItem(collection.table, key, context, guardAsRead(collection, 'must', current));
    if (outcome.applied) {
      // A crash before this leaves chunks no root names: the sweep's.
      await removeParts(store, collection, entityKey(collection, key), partRefs(current), context);
      return;
    }
    refusedAfterRead(collection, outcome.current, preconditions, 'the item changed');
  }
  throw new ShardlineError('conflict', 'the item kept changing while it was deleted; try again');
}

/** What a listing reads of each root: its projection, and the part references when `fields` names part attributes. */
export function listingProjection(collection: CollectionSpec, fields: readonly string[]): string[] {
  return plan(collection, fields).attributes;
}

/**
 * A listing page's roots with the part attributes `fields` names: the chunks of every root's needed
 * parts in one round of batch reads; a root whose parts moved on since is read again on its own.
 */
export async function withListedParts(
  store: Store,
  collection: CollectionSpec,
  records: readonly JsonObject[],
  fields: readonly string[],
  context: CallContext,
): Promise<JsonObject[]> {
  const { wanted } = plan(collection, fields);
  if (wanted.size === 0) return [...records];
  return Promise.all(
    records.map(async (root) => {
      const refs = refsFor(root, wanted);
      if (refs.size === 0) return root;
      const key = Object.fromEntries(collection.primaryKey.map(({ name }) => [name, root[name]]));
      const parts = await readParts(store, collection, entityKey(collection, key), refs, context, false);
      return parts ? merged(root, parts) : getEntity(store, collection, key, context, fields);
    }),
  );
}
