import { compareKeys } from '../../src/core/collation';
import type { RoutedCollection } from '../../src/core/collection';
import { shardQuery } from '../../src/service/listing/shard-reads';
import type { ShardQuery } from '../../src/store/shard-query';
import type { ShardPage, Store } from '../../src/store/store';
import { measured, type PageSample } from './page-sample';

/**
 * The naive listings shardline is measured against, on the same table through the same
 * store (one DynamoDB Query per shard, as the seed wrote them):
 * - `sequential`: the seed's loop — query every shard in turn with Limit = page size,
 *   then sort everything read and keep one page;
 * - `parallel`: the same queries all at once (a fan-out that still asks every shard
 *   for a full page).
 * Both resume with `gsi1sk > last returned key` and sort with compareKeys, so they
 * return exactly shardline's pages; both serialize the page to JSON as a router would.
 */
export type NaiveMode = 'sequential' | 'parallel';

export async function walkNaive(
  store: Store,
  collection: RoutedCollection,
  mode: NaiveMode,
  pageSize: number,
  maxPages = Infinity,
): Promise<PageSample[]> {
  const key = collection.map.index.indexKeyAttribute;
  const shards = Array.from({ length: collection.map.strategy.shardCount }, (_, shard) => shard);
  const samples: PageSample[] = [];
  let after: string | undefined;
  for (;;) {
    const { value, ms, cpuMs } = await measured(async () => {
      const query = (shard: number) => store.queryShard(naiveQuery(collection, shard, after, pageSize), {});
      let answers: ShardPage[] = [];
      if (mode === 'parallel') answers = await Promise.all(shards.map(query));
      else for (const shard of shards) answers.push(await query(shard));
      const read = answers.flatMap((answer) => answer.items);
      read.sort((a, b) => compareKeys(a[key] as string, b[key] as string));
      const page = read.slice(0, pageSize);
      const body = JSON.stringify({ items: page });
      const more = read.length > pageSize || answers.some((answer) => answer.resumeAfter !== undefined);
      const rcu = answers.reduce((sum, answer) => sum + (answer.consumedCapacity ?? 0), 0);
      return { page, body, read: read.length, more, rcu };
    });
    samples.push({
      returned: value.page.length,
      itemsRead: value.read,
      queries: shards.length,
      roundTrips: mode === 'sequential' ? shards.length : 1,
      rcu: value.rcu,
      ms,
      cpuMs,
    });
    const last = value.page[value.page.length - 1];
    if (!value.more || !last || samples.length >= maxPages) return samples;
    after = last[key] as string;
  }
}

/** Limit = the page size on every shard, resuming after the last key returned. */
function naiveQuery(collection: RoutedCollection, shard: number, after: string | undefined, limit: number): ShardQuery {
  return shardQuery(collection, { groups: [], keyRange: {}, direction: 'asc' }, shard, after, limit);
}
