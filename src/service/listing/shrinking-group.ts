import { compareKeys } from '../../core/collation';
import type { RoutedCollection } from '../../core/collection';
import type { OrderDirection } from '../../core/order-encoding';
import type { ShardStrategy } from '../../core/strategies/strategy';
import type { Listing } from './listing';

/**
 * One page of a group while a shrink moves its items off the shards it drops (docs/groups.md).
 * Items only ever move from a dropped shard to a kept one, and new writes go to kept shards only;
 * so the dropped shards are read first and the kept ones after: an item that moved before its
 * dropped shard was read is on a kept shard by the time those are read, one that moved after was
 * read where it was. It may be read twice (its index key is the same on both): kept once. Each
 * side's first `limit` items hold the union's first `limit`, so the page is exact.
 */
export async function listShrinkingGroup(
  view: RoutedCollection,
  keep: number,
  list: (part: RoutedCollection) => Promise<Listing>,
  direction: OrderDirection,
  limit: number,
): Promise<Listing> {
  const shards = view.map.strategy.shardCount;
  const dropped = await list(onShards(view, range(keep, shards)));
  const kept = await list(onShards(view, range(0, keep)));
  const key = view.map.index.indexKeyAttribute;
  const sign = direction === 'asc' ? 1 : -1;
  // An item read on both sides is kept once, as its dropped shard held it.
  const byKey = new Map([...kept.records, ...dropped.records].map((record) => [record[key] as string, record]));
  const merged = [...byKey.values()].sort((a, b) => sign * compareKeys(a[key] as string, b[key] as string));
  const more = merged.length > limit || dropped.nextPosition !== undefined || kept.nextPosition !== undefined;
  const records = merged.slice(0, limit);
  const stats = { ...dropped.stats };
  for (const name of ['shardQueries', 'hedges', 'itemsRead', 'roundTrips', 'dynamoMs'] as const) {
    stats[name] += kept.stats[name];
  }
  stats.consumedCapacity =
    dropped.stats.consumedCapacity === undefined && kept.stats.consumedCapacity === undefined
      ? undefined
      : (dropped.stats.consumedCapacity ?? 0) + (kept.stats.consumedCapacity ?? 0);
  const last = records[records.length - 1];
  return { records, nextPosition: more && last ? (last[key] as string) : undefined, stats };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

/** The view reading only `shards` (a strategy whose every read goes to them). */
function onShards(view: RoutedCollection, shards: number[]): RoutedCollection {
  const strategy: ShardStrategy = {
    ...view.map.strategy,
    shardsForValue: () => shards,
    groupsForRange: () => [shards],
  };
  return { ...view, map: { ...view.map, strategy } };
}
