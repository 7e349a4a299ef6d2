import type { CollectionSpec, RoutedCollection } from '../../core/collection';
import { ShardlineError } from '../../core/errors';
import type { JsonObject } from '../../core/item';
import type { CallContext } from '../../store/retry';
import type { RequestContext } from '../metrics/request-tally';
import type { Store } from '../../store/store';
import { foundOrMissing, withKeyFields } from '../batch-items';
import { type BatchOutcome, settleEach } from '../item-failure';
import { deleteEntity, getEntity } from './read-entity';
import { putEntity } from './write-entity';

/** The batch routes over a collection in parts: each entity written, read or deleted as the item routes do. */
export async function putEntities(
  store: Store,
  maps: readonly RoutedCollection[],
  inputs: readonly unknown[],
  context: RequestContext,
  random: () => number,
): Promise<BatchOutcome> {
  const { done, failed } = await settleEach(inputs, (input) => putEntity(store, maps, input, context, random));
  return { written: done, failed };
}

export async function getEntities(
  store: Store,
  collection: CollectionSpec,
  keys: readonly JsonObject[],
  context: CallContext,
  fields?: readonly string[],
): Promise<{ records: JsonObject[]; missing: JsonObject[] }> {
  const withKeys = fields && withKeyFields(collection, fields);
  const found = await Promise.all(
    keys.map((key) =>
      getEntity(store, collection, key, context, withKeys).catch((error: unknown) => {
        if (error instanceof ShardlineError && error.code === 'item_not_found') return undefined;
        throw error;
      }),
    ),
  );
  return foundOrMissing(keys, found);
}

export async function deleteEntities(
  store: Store,
  collection: CollectionSpec,
  keys: readonly JsonObject[],
  context: CallContext,
): Promise<{ deleted: number; failed: BatchOutcome['failed'] }> {
  const { done, failed } = await settleEach(keys, (key) => deleteEntity(store, collection, key, context));
  return { deleted: done.length, failed };
}
