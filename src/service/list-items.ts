import { setMaxListeners } from 'node:events';
import type { Collection } from '../core/collection';
import type { JsonObject } from '../core/item';
import { KWayMerge } from '../core/merge';
import { planListing, type ListRequest, type ReadPlan } from '../core/plan';
import { shardKey } from '../core/index-key';
import { compareKeys } from '../core/collation';
import { maxLower, minUpper, type KeyRange } from '../core/key-range';
import type { CallContext } from '../store/retry';
import type { ShardQuery } from '../store/shard-query';
import type { ShardPage, Store } from '../store/store';
import { hintedWave, MAX_QUERY_LIMIT, refillWave, type ShardProgress, type ShardRead } from './read-limits';
import { ShardTails } from './shard-tails';
import { MAX_AHEAD, type ReadHint } from '../core/read-hint';

export interface ListingStats {
  shardQueries: number;
  itemsRead: number;
  consumedCapacity: number | undefined;
  /** Waves of queries the page waited for one after another: its round trips to DynamoDB. */
  roundTrips: number;
  /** Wall time spent waiting for DynamoDB. */
  dynamoMs: number;
}

export interface Listing {
  /** Stored records in listing order (index attributes included). */
  readonly records: JsonObject[];
  /** Index sort key of the last record when more follow, else undefined. */
  readonly nextPosition: string | undefined;
  /** For the next page's cursor, with nextPosition: what this page read past its end. */
  readonly nextHint?: ReadHint;
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
  const stats: ListingStats = {
    shardQueries: 0,
    itemsRead: 0,
    consumedCapacity: undefined,
    roundTrips: 0,
    dynamoMs: 0,
  };
  const controller = new AbortController();
  // Every shard query listens on this one signal; dozens in flight are expected, not a leak.
  setMaxListeners(0, controller.signal);
  const onAbort = () => controller.abort();
  if (context.signal?.aborted) controller.abort();
  context.signal?.addEventListener('abort', onAbort, { once: true });
  const scoped: CallContext = {
    signal: controller.signal,
    ...(context.deadline !== undefined && { deadline: context.deadline }),
  };
  try {
    const records: JsonObject[] = [];
    const want = limit + 1;
    const tails = tailsOf(collection);
    const prefetches = plannedPrefetches(store, collection, plan, request.after, want, tails, scoped);
    // A hint describes the one group of a hash or random listing, as it was.
    const hint =
      plan.groups.length === 1 && request.hint?.more.length === plan.groups[0]!.length ? request.hint : undefined;
    let drained = -1;
    let nextHint: ReadHint | undefined;
    for (const [index, group] of plan.groups.entries()) {
      if (records.length >= want) break;
      drained = index;
      const first = { prefetched: prefetches.get(index), hint: index === 0 ? hint : undefined };
      nextHint = await drainGroup(
        store,
        collection,
        plan,
        group,
        index === 0,
        want,
        records,
        stats,
        scoped,
        tails,
        first,
      );
    }
    // Prefetched shards the page did not reach (their shard before had grown): read all the same.
    for (const [index, prefetch] of prefetches) if (index > drained) countPage(stats, await prefetch.page);
    const more = records.length > limit;
    const page = more ? records.slice(0, limit) : records;
    const last = page[page.length - 1];
    const nextPosition = more && last ? (last[collection.indexKeyAttribute] as string) : undefined;
    return {
      records: page,
      nextPosition,
      ...(nextPosition !== undefined && plan.groups.length === 1 && nextHint && { nextHint }),
      stats,
    };
  } catch (error) {
    controller.abort();
    throw error;
  } finally {
    context.signal?.removeEventListener('abort', onAbort);
  }
}

/** Per collection, the shard ends listings have seen (hints for prefetching; see ShardTails). */
const shardTails = new WeakMap<Collection, ShardTails>();

function tailsOf(collection: Collection): ShardTails {
  let tails = shardTails.get(collection);
  if (!tails) {
    tails = new ShardTails();
    shardTails.set(collection, tails);
  }
  return tails;
}

interface ShardState {
  /** Index sort key the shard's next page starts after (in read order). */
  resumeAfter: string | undefined;
  /** Index keys read from this shard in this page, for sizing the next wave. */
  keys: string[];
  /** The limit of this shard's latest refill (a query after its first) in this page. */
  lastRefill: number | undefined;
}

/** A query of a range shard sent ahead of need: the first page of its group. */
interface Prefetch {
  readonly page: Promise<ShardPage>;
}

/**
 * Range listings read one shard after another. Where the shard-end hints say the
 * page will run past the end of a shard, the next shard's first query goes out now,
 * in parallel, asking for what the page will still need there — instead of one round
 * trip later. Chains over consecutive one-shard groups while the hints reach.
 */
function plannedPrefetches(
  store: Store,
  collection: Collection,
  plan: ReadPlan,
  after: string | undefined,
  want: number,
  tails: ShardTails,
  context: CallContext,
): Map<number, Prefetch> {
  const prefetches = new Map<number, Prefetch>();
  let before = 0;
  for (let index = 0; index + 1 < plan.groups.length; index++) {
    const group = plan.groups[index]!;
    const next = plan.groups[index + 1]!;
    if (group.length !== 1 || next.length !== 1) break;
    // The first group starts at the cursor (or the range's start); later ones at their shard's start.
    const left = tails.remainingAfter(plan, group[0]!, index === 0 ? after : undefined, compareKeys);
    if (left === undefined) break;
    before += left;
    if (before >= want) break;
    const page = store.queryShard(shardQuery(collection, plan, next[0]!, undefined, want - before), context);
    page.catch(() => undefined); // awaited where it is used; a failure is raised there
    prefetches.set(index + 1, { page });
  }
  return prefetches;
}

/**
 * Merges one shard group into `records` until the page has `want` items or the group
 * is done. Queries go out in waves (see `refillWave`); a one-shard group reads what the
 * page still needs in one query. `first.prefetched`, when given, is this one-shard
 * group's first page, already in flight; `first.hint` sizes a merged group's first wave.
 * Returns what a merged group read past the page's end, when the page is full.
 */
async function drainGroup(
  store: Store,
  collection: Collection,
  plan: ReadPlan,
  group: readonly number[],
  firstGroup: boolean,
  want: number,
  records: JsonObject[],
  stats: ListingStats,
  context: CallContext,
  tails: ShardTails,
  first: { readonly prefetched: Prefetch | undefined; readonly hint: ReadHint | undefined },
): Promise<ReadHint | undefined> {
  const key = collection.indexKeyAttribute;
  const merge = new KWayMerge<JsonObject>(group.length, (record) => record[key] as string, plan.order);
  const shards: ShardState[] = group.map(() => ({ resumeAfter: undefined, keys: [], lastRefill: undefined }));
  const target = want - records.length;
  const single = group.length === 1;
  const sign = plan.order === 'asc' ? 1 : -1;
  const before = (a: string, b: string) => sign * compareKeys(a, b) < 0;
  let pending = first.prefetched;
  let hinted = first.hint && !single ? hintedWave(first.hint, target) : undefined;
  for (;;) {
    const stop = merge.emitInto(records, want);
    if (stop.kind !== 'need') {
      return single || records.length < want
        ? undefined
        : readPastEnd(shards, merge, records[want - 2]![key] as string, before);
    }
    const wave = single
      ? [{ source: 0, limit: Math.min(want - records.length, MAX_QUERY_LIMIT) }]
      : (hinted ?? nextWave(merge, shards, stop.sources, target, before));
    hinted = undefined;
    // A prefetched page went out with an earlier wave: waiting for it is no new round trip.
    if (!(pending && wave.length === 1)) stats.roundTrips++;
    const started = performance.now();
    const starts = wave.map(({ source }) => shards[source]!.resumeAfter);
    const pages = await Promise.all(
      wave.map(({ source, limit: queryLimit }) => {
        const state = shards[source]!;
        if (pending) {
          const first = pending.page;
          pending = undefined;
          return first;
        }
        if (state.resumeAfter !== undefined) state.lastRefill = queryLimit;
        return store.queryShard(shardQuery(collection, plan, group[source]!, state.resumeAfter, queryLimit), context);
      }),
    );
    stats.dynamoMs += performance.now() - started;
    wave.forEach(({ source }, i) => {
      const page = pages[i]!;
      const state = shards[source]!;
      state.resumeAfter = page.resumeAfter;
      countPage(stats, page);
      if (!single) for (const item of page.items) state.keys.push(item[key] as string);
      else if (page.resumeAfter === undefined) {
        // A later group's first read starts at its shard's start: the page's bound lies before it.
        const whole = !firstGroup && starts[i] === undefined;
        tails.record(plan, group[source]!, page.items, key, whole ? undefined : nearBound(plan, starts[i]));
      }
      merge.supply(source, page.items, page.resumeAfter === undefined);
    });
  }
}

/** The hint for the next page: the shards of the keys read past `end`, in read order. */
function readPastEnd(
  shards: readonly ShardState[],
  merge: KWayMerge<JsonObject>,
  end: string,
  before: (a: string, b: string) => boolean,
): ReadHint {
  const past: { key: string; shard: number }[] = [];
  shards.forEach((state, shard) => {
    for (const key of state.keys) if (before(end, key)) past.push({ key, shard });
  });
  past.sort((a, b) => (before(a.key, b.key) ? -1 : 1));
  return {
    more: shards.map((_, source) => merge.hasMore(source)),
    ahead: past.slice(0, MAX_AHEAD).map(({ shard }) => shard),
  };
}

function nextWave(
  merge: KWayMerge<JsonObject>,
  shards: readonly ShardState[],
  waitingSources: readonly number[],
  target: number,
  before: (a: string, b: string) => boolean,
): ShardRead[] {
  const waiting = new Set(waitingSources);
  const progress: ShardProgress[] = shards.map((state, source) => ({
    keys: state.keys,
    hasMore: merge.hasMore(source),
    waiting: waiting.has(source),
    ...(state.lastRefill !== undefined && { lastRefill: state.lastRefill }),
  }));
  return refillWave(progress, target, before);
}

function shardQuery(
  collection: Collection,
  plan: ReadPlan,
  shard: number,
  resumeAfter: string | undefined,
  limit: number,
): ShardQuery {
  return {
    table: collection.table,
    index: collection.index,
    shardKeyAttribute: collection.shardKeyAttribute,
    indexKeyAttribute: collection.indexKeyAttribute,
    shardKey: shardKey(collection.prefix, shard),
    range: resumeRange(plan, resumeAfter),
    order: plan.order,
    limit,
  };
}

function countPage(stats: ListingStats, page: ShardPage): void {
  stats.shardQueries++;
  stats.itemsRead += page.itemsRead;
  if (page.consumedCapacity !== undefined)
    stats.consumedCapacity = (stats.consumedCapacity ?? 0) + page.consumedCapacity;
}

/** The key a read starts after (or at): where its items begin, in read order. */
function nearBound(plan: ReadPlan, resumeAfter: string | undefined): string | undefined {
  const range = resumeRange(plan, resumeAfter);
  return (plan.order === 'asc' ? range.lower : range.upper)?.key;
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
