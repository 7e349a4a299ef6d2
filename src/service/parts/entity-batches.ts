import type { CollectionSpec, RoutedCollection } from '../../core/collection';
import { ShardlineError } from '../../core/errors';
import type { JsonObject } from '../../core/item';
import type { CallContext } from '../../store/retry';
import type { RequestContext } from '../metrics/request-tally';
import type { BatchOutcome, Store } from '../../store/store';
import { foundOrMissing } from '../batch-items';
import { itemFailure } from '../item-failure';
import { deleteEntity, getEntity } from './read-entity';
import { putEntity } from './write-entity';

/** Each input's outcome: done, or failed with its error (as the batch routes report them). */
async function each<T>(
  inputs: readonly T[],
  run: (input: T) => Promise<void>,
): Promise<{ done: number[]; failed: BatchOutcome['failed'] }> {
  const done: number[] = [];
  const failed: BatchOutcome['failed'] = [];
  await Promise.all(
    inputs.map(async (input, index) => {
      try {
        await run(input);
        done.push(index);
      } catch (error) {
        failed.push({ index, error: itemFailure(error) });
      }
    }),
  );
  done.sort((a, b) => a - b);
  failed.sort((a, b) => a.index - b.index);
  return { done, failed };
}

/** The batch routes over a collection in parts: each entity written, read or deleted as the item routes do. */
export async function putEntities(
  store: Store,
  maps: readonly RoutedCollection[],
  inputs: readonly unknown[],
  context: RequestContext,
  random: () => number,
): Promise<BatchOutcome> {
  const { done, failed } = await each(inputs, async (input) => {
    await putEntity(store, maps, input, context, random);
  });
  return { written: done, failed };
}

export async function getEntities(
  store: Store,
  collection: CollectionSpec,
  keys: readonly JsonObject[],
  context: CallContext,
  fields?: readonly string[],
): Promise<{ records: JsonObject[]; missing: JsonObject[] }> {
  const found = await Promise.all(
    keys.map((key) =>
      getEntity(store, collection, key, context, fields).catch((error: unknown) => {
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
  const { done, failed } = await each(keys, (key) => deleteEntity(store, collection, key, context));
  return { deleted: done.length, failed };
}
