import { setMaxListeners } from 'node:events';
import type { Collection } from '../core/collection';
import type { JsonObject } from '../core/item';
import { KWayMerge } from '../core/merge';
import { planListing, type ListRequest, type ReadPlan } from '../core/plan';
import { shardKey } from '../core/index-key';
import { maxLower, minUpper, type KeyRange } from '../core/key-range';
import type { CallContext } from '../store/retry';
import type { Store } from '../store/store';
import { shardQueryLimit } from './read-limits';

export interface ListingStats {
  shardQueries: number;
  itemsRead: number;
  consumedCapacity: number | undefined;
  /** Wall time spent waiting for DynamoDB. */
  dynamoMs: number;
}

export interface Listing {
  /** Stored records in listing order (index attributes included). */
  readonly records: JsonObject[];
  /** Index sort key of the last record when more follow, else undefined. */
  readonly nextPosition: string | undefined;
  readonly stats: ListingStats;
}

/**
 * Reads one page of a sorted listing: plans the shard groups, then for each group
 * in order runs a lazy k-way merge whose shard queries go out in parallel. One
 * item beyond the page is read (it is usually buffered already) so that the last
 * page is known to be the last. If any shard query fails, the others are aborted
 * and the error propagates: a page is complete or it is not returned.
 */
export async function listItems(
  store: Store,
  collection: Collection,
  request: ListRequest,
  limit: number,
  context: CallContext,
): Promise<Listing> {
  const plan = planListing(collection, request);
  const stats: ListingStats = { shardQueries: 0, itemsRead: 0, consumedCapacity: undefined, dynamoMs: 0 };
  const controller = new AbortController();
  // Every shard query listens on this one signal; dozens in flight are expected, not a leak.
  setMaxListeners(0, controller.signal);
  const onAbort = () => controller.abort();
  if (context.signal?.aborted) controller.abort();
  context.signal?.addEventListener('abort', onAbort, { once: true });
  const scoped: CallContext = { signal: controller.signal, ...(context.deadline !== undefined && { deadline: context.deadline }) };
  try {
    const records: JsonObject[] = [];
    const want = limit + 1;
    for (const group of plan.groups) {
      if (records.length >= want) break;
      await drainGroup(store, collection, plan, group, want, records, stats, scoped);
    }
    const more = records.length > limit;
    const page = more ? records.slice(0, limit) : records;
    const last = page[page.length - 1];
    return {
      records: page,
      nextPosition: more && last ? (last[collection.indexKeyAttribute] as string) : undefined,
      stats,
    };
  } catch (error) {
    controller.abort();
    throw error;
  } finally {
    context.signal?.removeEventListener('abort', onAbort);
  }
}

interface ShardState {
  /** Index sort key the shard's next page starts after (in read order). */
  resumeAfter: string | undefined;
  previousLimit: number | undefined;
}

async function drainGroup(
  store: Store,
  collection: Collection,
  plan: ReadPlan,
  group: readonly number[],
  want: number,
  records: JsonObject[],
  stats: ListingStats,
  context: CallContext,
): Promise<void> {
  const key = collection.indexKeyAttribute;
  const merge = new KWayMerge<JsonObject>(group.length, (record) => record[key] as string, plan.order);
  const shards: ShardState[] = group.map(() => ({ resumeAfter: undefined, previousLimit: undefined }));
  for (;;) {
    const step = merge.next();
    if (step.kind === 'done') return;
    if (step.kind === 'item') {
      records.push(step.item);
      if (records.length >= want) return;
      continue;
    }
    const remaining = want - records.length;
    const active = group.filter((_, source) => !merge.isExhausted(source)).length;
    const started = performance.now();
    const pages = await Promise.all(
      step.sources.map((source) => {
        const state = shards[source]!;
        const queryLimit = shardQueryLimit(remaining, active, state.previousLimit);
        state.previousLimit = queryLimit;
        return store.queryShard(
          {
            table: collection.table,
            index: collection.index,
            shardKeyAttribute: collection.shardKeyAttribute,
            indexKeyAttribute: key,
            shardKey: shardKey(collection.prefix, group[source]!),
            range: resumeRange(plan, state.resumeAfter),
            order: plan.order,
            limit: queryLimit,
          },
          context,
        );
      }),
    );
    stats.dynamoMs += performance.now() - started;
    step.sources.forEach((source, i) => {
      const page = pages[i]!;
      shards[source]!.resumeAfter = page.resumeAfter;
      stats.shardQueries++;
      stats.itemsRead += page.itemsRead;
      if (page.consumedCapacity !== undefined) stats.consumedCapacity = (stats.consumedCapacity ?? 0) + page.consumedCapacity;
      merge.supply(source, page.items, page.resumeAfter === undefined);
    });
  }
}

/**
 * The range of a shard's next page: the plan's range, cut just past what the shard
 * already returned. A key condition rather than DynamoDB's ExclusiveStartKey, which
 * dynalite validates in UTF-16 order and refuses for emoji against U+E000–U+FFFF.
 */
function resumeRange(plan: ReadPlan, resumeAfter: string | undefined): KeyRange {
  if (resumeAfter === undefined) return plan.keyRange;
  const bound = { key: resumeAfter, inclusive: false };
  return plan.order === 'asc'
    ? { ...plan.keyRange, lower: maxLower(plan.keyRange.lower, bound) }
    : { ...plan.keyRange, upper: minUpper(plan.keyRange.upper, bound) };
}
