import type { Collection } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { prepareItem, type JsonObject, type PreparedItem } from '../core/item';
import type { CallContext } from '../store/retry';
import type { BatchOutcome, Store } from '../store/store';

/** DESIGN section 4: a batch carries at most 1000 items. */
export const MAX_BATCH_ITEMS = 1000;

export interface WriteResult {
  readonly shard: number;
  readonly shardKey: string;
  readonly item: JsonObject;
}

/**
 * Assigns the item's shard under every map writes set (`maps`: the collection as each
 * shard map sees it, the read map first) and writes it once. Invalid items are refused
 * before any write. The result names the shard of the first map.
 */
export async function putItem(
  store: Store,
  maps: readonly Collection[],
  input: unknown,
  context: CallContext,
  random: () => number = Math.random,
): Promise<WriteResult> {
  const [collection, ...also] = maps as [Collection, ...Collection[]];
  const prepared = prepareItem(collection, input, random, also);
  await store.putItem(collection.table, prepared.record, context);
  return { shard: prepared.shard, shardKey: prepared.shardKey, item: prepared.item };
}

/**
 * Writes a batch. Every item is checked first: if any is invalid, or two share a
 * primary key, the whole batch is refused (400, every bad index listed) and nothing
 * is written. Otherwise each item ends up written or listed as failed by index.
 */
export async function putBatch(
  store: Store,
  maps: readonly Collection[],
  inputs: readonly unknown[],
  context: CallContext,
  random: () => number = Math.random,
): Promise<BatchOutcome> {
  const [collection, ...also] = maps as [Collection, ...Collection[]];
  const prepared: PreparedItem[] = [];
  const invalid: { index: number; error: { code: string; message: string } }[] = [];
  const firstIndexOfKey = new Map<string, number>();
  inputs.forEach((input, index) => {
    try {
      const item = prepareItem(collection, input, random, also);
      const key = JSON.stringify(collection.primaryKey.map(({ name }) => item.primaryKey[name]));
      const first = firstIndexOfKey.get(key);
      if (first !== undefined) {
        throw new ShardlineError('invalid_item', `same primary key as item ${first}; a batch writes each item once`);
      }
      firstIndexOfKey.set(key, index);
      prepared.push(item);
    } catch (error) {
      if (!(error instanceof ShardlineError)) throw error;
      invalid.push({ index, error: { code: error.code, message: error.message } });
    }
  });
  if (invalid.length > 0) {
    throw new ShardlineError(
      'invalid_item',
      `${invalid.length} of ${inputs.length} items are invalid; nothing was written`,
      {
        invalid,
      },
    );
  }
  return store.batchPut(
    collection.table,
    prepared.map(({ record }) => record),
    context,
  );
}
