import type { RoutedCollection } from '../core/collection';
import { internalError, ShardlineError } from '../core/errors';
import { valueOfIndexKey } from '../core/index-key';
import { prepareItem, type PreparedItem } from '../core/item';
import type { Store } from '../store/store';
import { readBatch } from './batch-inputs';
import { writeGuarded, type Preconditions } from './guards';
import { type BatchOutcome, type ItemFailure, itemFailure, settleEach } from './item-failure';
import { type RequestContext, shardObserver } from './metrics/request-tally';

/** docs/api.md: a batch carries at most 1000 items. */
export const MAX_BATCH_ITEMS = 1000;

export type WriteResult = Pick<PreparedItem, 'shard' | 'shardKey' | 'item' | 'etag'>;

/** Only these fields: the item routes answer with the result as it is. */
export function writeResult({ shard, shardKey, item, etag }: WriteResult): WriteResult {
  return { shard, shardKey, item, etag };
}

/**
 * Assigns the item's shard under every map writes set (`maps`, the read map first) and writes it
 * once under a guard DynamoDB checks: another collection's item is a 409, a failed precondition
 * a 412. The result names the shard of the first map.
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
  await putPrepared(store, collection, prepared, context, preconditions);
  return writeResult(prepared);
}

/**
 * Writes a batch. If any item is invalid or two share a primary key, nothing is written (400,
 * every bad index listed); else each ends up written or failed by index (another collection's
 * item as `conflict`, never moved).
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
  // Each item with its own conditional PutItem: BatchWriteItem cannot refuse another collection's item.
  const { done, failed } = await settleEach(
    prepared,
    (item) => putPrepared(store, collection, item, context),
    batchFailure,
  );
  return { written: done, failed };
}

/** A put the deadline stopped may have been sent already: DynamoDB may still apply it. */
const CUT_OFF = 'the request deadline cut off the write; it may or may not have been written';

/**
 * Why one item of a batch was not written. Every item passed the collection's checks before any was sent,
 * so an `invalid_item` now is DynamoDB refusing it (the store's translation): `rejected`, as docs/operations.md
 * names it. A refusal the store has no code for (`internal`) is one too, in DynamoDB's words.
 */
function batchFailure(error: unknown): ItemFailure {
  const known = error instanceof ShardlineError ? error : internalError(String((error as Error)?.message), error);
  switch (known.code) {
    case 'invalid_item':
      return { code: 'rejected', message: known.message };
    case 'internal':
      return { code: 'rejected', message: `DynamoDB refused the write: ${known.message.slice(0, 300)}` };
    case 'timeout':
      return { code: 'timeout', message: CUT_OFF };
    default:
      return itemFailure(known);
  }
}

/** Writes one item under its guard, then counts it. */
async function putPrepared(
  store: Store,
  collection: RoutedCollection,
  item: PreparedItem,
  context: RequestContext,
  preconditions: Preconditions = {},
): Promise<void> {
  const { tally } = context;
  // Retries and throttles count for the request and for the item's shard.
  const itemContext = tally ? { ...context, observer: shardObserver(tally, collection.name, item.shard) } : context;
  await writeGuarded(collection, 'may', preconditions, (guard) =>
    store.putItem(collection.table, item.record, itemContext, guard),
  );
  countWrite(context, collection, item);
}

/**
 * One item written, counted in the request's figures and its shard's: its value feeds the hot keys, a
 * grouped collection's item's group the fleet's load per group.
 */
export function countWrite(context: RequestContext, collection: RoutedCollection, item: PreparedItem): void {
  const { tally } = context;
  if (!tally) return;
  tally.itemsWritten++;
  tally.recorder.shardWritten(collection.name, item.shard, valueOfIndexKey(item.indexKey), item.group);
}
