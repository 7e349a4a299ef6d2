import type { RoutedCollection } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { valueOfIndexKey } from '../core/index-key';
import { prepareItem, type JsonObject, type PreparedItem } from '../core/item';
import type { CallContext } from '../store/retry';
import type { BatchOutcome, Store } from '../store/store';
import { readBatch } from './batch-inputs';
import { writeGuard, writeGuarded, type Preconditions } from './guards';
import { type RequestContext, shardObserver, type RequestTally } from './metrics/request-tally';

/** DESIGN section 4: a batch carries at most 1000 items. */
export const MAX_BATCH_ITEMS = 1000;

export interface WriteResult {
  readonly shard: number;
  readonly shardKey: string;
  readonly item: JsonObject;
  readonly etag: string;
}

/**
 * Assigns the item's shard under every map writes set (`maps`: the collection as each
 * shard map sees it, the read map first) and writes it once, under a guard DynamoDB
 * checks: an item of another collection is a 409, a failed precondition a 412. Invalid
 * items are refused before any write. The result names the shard of the first map.
 */
export async function putItem(
  store: Store,
  maps: readonly RoutedCollection[],
  input: unknown,
  context: RequestContext,
  random: () => number = Math.random,
  preconditions: Preconditions = {},
): Promise<WriteResult> {
  const [collection, ...also] = maps as [RoutedCollection, ...RoutedCollection[]];
  const prepared = prepareItem(collection, input, random, also);
  const tally = context.tally;
  const guard = writeGuard(collection, 'may', preconditions);
  await writeGuarded(collection, 'may', preconditions, () =>
    store.putItem(collection.table, prepared.record, observed(context, collection.name, prepared.shard), guard),
  );
  countWritten(tally, collection.name, prepared);
  return { shard: prepared.shard, shardKey: prepared.shardKey, item: prepared.item, etag: prepared.etag };
}

/**
 * Writes a batch. Every item is checked first: if any is invalid, or two share a
 * primary key, the whole batch is refused (400, every bad index listed) and nothing
 * is written. Otherwise each item ends up written or listed as failed by index —
 * an item of another collection as `conflict`, never moved.
 */
export async function putBatch(
  store: Store,
  maps: readonly RoutedCollection[],
  inputs: readonly unknown[],
  context: RequestContext,
  random: () => number = Math.random,
): Promise<BatchOutcome> {
  const [collection, ...also] = maps as [RoutedCollection, ...RoutedCollection[]];
  const prepared = readBatch(
    inputs,
    (input) => {
      const item = prepareItem(collection, input, random, also);
      return { value: item, key: item.primaryKey };
    },
    {
      code: 'invalid_item',
      summary: (bad) => `${bad} of ${inputs.length} items are invalid; nothing was written`,
      repeated: (first) => `same primary key as item ${first}; a batch writes each item once`,
    },
  );
  return putGuarded(store, collection, prepared, context);
}

/** A put the deadline stopped may have been sent already: DynamoDB may still apply it. */
const CUT_OFF = 'the request deadline cut off the write; it may or may not have been written';

/**
 * Each item with its own conditional PutItem, in parallel under the store's bound on calls
 * in flight: DynamoDB's BatchWriteItem takes no conditions, so it cannot refuse another
 * collection's item. Every index ends up written or failed with its reason.
 */
async function putGuarded(
  store: Store,
  collection: RoutedCollection,
  prepared: readonly PreparedItem[],
  context: RequestContext,
): Promise<BatchOutcome> {
  const guard = writeGuard(collection, 'may');
  const tally = context.tally;
  const outcome: BatchOutcome = { written: [], failed: [] };
  await Promise.all(
    prepared.map(async (item, index) => {
      try {
        const itemContext = observed(context, collection.name, item.shard);
        await writeGuarded(collection, 'may', {}, () =>
          store.putItem(collection.table, item.record, itemContext, guard),
        );
        countWritten(tally, collection.name, item);
        outcome.written.push(index);
      } catch (error) {
        const failure =
          error instanceof ShardlineError
            ? { code: error.code, message: error.code === 'timeout' ? CUT_OFF : error.message }
            : {
                code: 'rejected',
                message: `DynamoDB refused the write: ${String((error as Error).message).slice(0, 300)}`,
              };
        outcome.failed.push({ index, error: failure });
      }
    }),
  );
  outcome.written.sort((a, b) => a - b);
  outcome.failed.sort((a, b) => a.index - b.index);
  return outcome;
}

/** The context whose retries and throttles count for the request and for the item's shard. */
function observed(context: RequestContext, collection: string, shard: number): CallContext {
  const tally = context.tally;
  return tally ? { ...context, observer: shardObserver(tally, collection, shard) } : context;
}

/** One written item in the request's figures and its shard's (its value feeds the hot keys). */
function countWritten(tally: RequestTally | undefined, collection: string, item: PreparedItem): void {
  if (!tally) return;
  tally.itemsWritten++;
  tally.recorder.shardWritten(collection, item.shard, valueOfIndexKey(item.indexKey));
}
